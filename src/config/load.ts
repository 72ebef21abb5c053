/**
 * Public entry of config/: read gateway.yaml, parse it keeping every key's line, interpolate the
 * environment, validate. Never reads key, JWKS or policy files, and never resolves their paths.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  LineCounter,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  type Document,
  type Node,
} from 'yaml';
import { ConfigError, formatKeyPath, type Problem } from '../shared/problem.js';
import { interpolateTree, type Env } from './env.js';
import type { GatewayConfig } from './schema.js';
import { deepFreeze, validateConfig, type KeyIssue } from './validate.js';

export { algorithmsOf, authorizationEnabled } from './schema.js';
export type { AuthConfig, GatewayConfig } from './schema.js';
export { hasJwtSource } from './validate.js';

type KeyPath = readonly (string | number)[];

/** A loaded, valid config file: the frozen config, its warnings, and where its keys are. */
export interface LoadedConfig {
  /** The path as given (used in messages). */
  readonly file: string;
  /** Absolute path of the file. */
  readonly path: string;
  /** Absolute folder: the base of relative paths in the config. */
  readonly dir: string;
  /** Validated, defaults applied, deep-frozen. */
  readonly config: GatewayConfig;
  /** Warnings (`SGWRN###`, `SGDEP###`) to print at start-up and on `check`. */
  readonly warnings: readonly Problem[];
  /** 1-based line of the key (or list item) at `keyPath` in the file, if it is written there. */
  lineOf(keyPath: KeyPath): number | undefined;
  /** Absolute path for a path written in the config, relative to {@link LoadedConfig.dir}. */
  resolvePath(p: string): string;
}

/**
 * Values given on the command line over the file's (`serve --port`, `--admin-port`). They are
 * applied to every load of the file (start-up and each reload), before validation, so a reload
 * sees the same listeners and never reports them as changed.
 */
export interface ConfigOverrides {
  /** `listen.port`. */
  readonly listenPort?: number | undefined;
  /** `admin.port`. */
  readonly adminPort?: number | undefined;
}

/** Options of {@link loadConfig} and {@link parseConfig}. */
export interface LoadOptions {
  /** Environment for `${NAME}` and the `JWT_*` environment defaults; `process.env` when omitted. */
  readonly env?: Env;
  /** Command-line values over the file's. */
  readonly overrides?: ConfigOverrides | undefined;
}

/** The tree with `overrides` set in it (a section that is not a mapping is left to validation). */
function applyOverrides(tree: unknown, overrides: ConfigOverrides | undefined): unknown {
  // An empty file is all defaults: the overrides still apply.
  const base = tree ?? {};
  if (overrides === undefined || !isMapping(base)) return tree;
  const out: Record<string, unknown> = { ...base };
  const set = (section: string, key: string, value: number | undefined): void => {
    if (value === undefined) return;
    const current = out[section] ?? {};
    if (isMapping(current)) out[section] = { ...current, [key]: value };
  };
  set('listen', 'port', overrides.listenPort);
  set('admin', 'port', overrides.adminPort);
  return out;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads, parses and validates the config file `file`.
 * @throws ConfigError listing every problem (unreadable file, YAML, environment, schema,
 *   cross-field), each with file, key path and line.
 */
export function loadConfig(file: string, options: LoadOptions = {}): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const message = `cannot read the config file: ${(err as Error).message}`;
    throw new ConfigError([{ file, key: '', message }]);
  }
  return parseConfig(text, file, options);
}

/**
 * Parses and validates config text as if read from `file` (for tests and reload).
 * `options.dir` overrides the folder relative paths are resolved against.
 * @throws ConfigError listing every problem.
 */
export function parseConfig(
  text: string,
  file: string,
  options: LoadOptions & { readonly dir?: string } = {},
): LoadedConfig {
  const env = options.env ?? process.env;
  const path = resolve(file);
  const dir = options.dir === undefined ? dirname(path) : resolve(options.dir);

  const lineCounter = new LineCounter();
  // Duplicate keys are found by indexKeys, on the keys as toJS() spells them: yaml's own check
  // misses `1:` beside `"1":`, which toJS() would silently merge.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const index = indexKeys(doc, lineCounter);
  const lineOf = (keyPath: KeyPath): number | undefined => index.lines.get(JSON.stringify(keyPath));
  // A problem on a key that is not written in the file (a default, or a key under an alias)
  // points at the closest written ancestor.
  const nearestLine = (keyPath: KeyPath): number | undefined => {
    for (let n = keyPath.length; n > 0; n--) {
      const line = lineOf(keyPath.slice(0, n));
      if (line !== undefined) return line;
    }
    return undefined;
  };
  const locate = (issue: KeyIssue): Problem => ({
    file,
    key: formatKeyPath(issue.path),
    line: nearestLine(issue.path),
    message: issue.message,
    ...(issue.code === undefined ? {} : { code: issue.code }),
  });

  // YAML errors and warnings (an unresolved !tag would silently become a string) are fatal:
  // past a syntax error the tree is a guess, and validating a guess only adds noise.
  const yamlProblems: Problem[] = [...doc.errors, ...doc.warnings].map((error) => ({
    file,
    key: '',
    line: lineCounter.linePos(error.pos[0]).line,
    message: error.message,
  }));
  yamlProblems.push(...index.problems.map((p) => ({ file, ...p })));
  if (yamlProblems.length > 0) throw new ConfigError(byLine(yamlProblems));

  let tree: unknown;
  try {
    // toJS bounds alias expansion (maxAliasCount), so a "billion laughs" file fails here.
    tree = doc.toJS();
  } catch (err) {
    throw new ConfigError([{ file, key: '', message: (err as Error).message }]);
  }

  const interpolated = interpolateTree(applyOverrides(tree, options.overrides), env);
  const validation = validateConfig(interpolated.value, env);
  const failed = interpolated.issues.map((issue) => issue.path);
  const errors = [
    ...interpolated.issues,
    // A value that could not be interpolated is already reported; what the schema thinks of
    // the raw `${…}` text would only repeat it.
    ...(validation.ok ? [] : validation.errors).filter(
      (issue) => !failed.some((bad) => startsWith(issue.path, bad)),
    ),
  ];
  if (!validation.ok || errors.length > 0) {
    throw new ConfigError(byLine(errors.map(locate)), {
      file,
      dir,
      tree: interpolated.value,
      lineOf,
    });
  }

  return Object.freeze({
    file,
    path,
    dir,
    config: validation.config,
    warnings: deepFreeze(byLine(validation.warnings.map(locate))),
    lineOf,
    resolvePath: (p: string) => resolve(dir, p),
  });
}

/** Orders problems as the file reads, top to bottom; those without a line come last. */
function byLine(problems: Problem[]): Problem[] {
  const lineOrLast = (p: Problem) => p.line ?? Number.MAX_SAFE_INTEGER;
  return problems.sort((a, b) => lineOrLast(a) - lineOrLast(b));
}

function startsWith(path: KeyPath, prefix: KeyPath): boolean {
  return prefix.every((part, i) => path[i] === part);
}

interface KeyIndex {
  /** JSON of a key path → 1-based line of its key (or list item). */
  readonly lines: Map<string, number>;
  /** Keys the loader refuses, located at the key itself. */
  readonly problems: { key: string; line: number; message: string }[];
}

/**
 * Walks the YAML nodes once, recording each key's line, and refusing duplicate keys and keys
 * a JS object cannot hold faithfully.
 */
function indexKeys(doc: Document, lineCounter: LineCounter): KeyIndex {
  const index: KeyIndex = { lines: new Map(), problems: [] };
  // Parsed nodes always carry a range; only nodes built in code lack one.
  const lineAt = (node: Node) =>
    lineCounter.linePos((node.range as [number, number, number])[0]).line;
  const record = (keyPath: KeyPath, node: Node) => {
    index.lines.set(JSON.stringify(keyPath), lineAt(node));
  };
  const refuse = (keyPath: KeyPath, node: Node, message: string) => {
    index.problems.push({ key: formatKeyPath(keyPath), line: lineAt(node), message });
  };
  const walk = (node: unknown, keyPath: KeyPath): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isScalar(pair.key)) {
          // `? [a, b]: x` would become the key "[ a, b ]": refuse rather than guess.
          refuse(keyPath, pair.key as Node, 'a key must be a plain string');
          continue;
        }
        // The key as toJS() spells it: `null:` and `~:` become "".
        const name = pair.key.value === null ? '' : String(pair.key.value);
        const childPath = [...keyPath, name];
        if (seen.has(name)) {
          // The first one keeps its line: a problem about the key points where it is defined.
          refuse(childPath, pair.key, 'duplicate key');
          continue;
        }
        seen.add(name);
        record(childPath, pair.key);
        if (pair.key.value === '__proto__') {
          // Copied into a record by the schema, `__proto__` would set a prototype: refuse it.
          refuse(childPath, pair.key, 'the key __proto__ is not allowed');
        }
        walk(pair.value, childPath);
      }
    } else if (isAlias(node) && node.resolve(doc) === undefined) {
      refuse(keyPath, node, `unresolved alias *${node.source} (the anchor must come first)`);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        record([...keyPath, i], item as Node);
        walk(item, [...keyPath, i]);
      });
    }
  };
  walk(doc.contents, []);
  return index;
}
