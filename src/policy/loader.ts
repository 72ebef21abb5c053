/**
 * Reads policy files (`policies:`) into layers, keeping each mapping's file, key and line. The
 * only module of policy/ that does I/O; it never decides anything and never compiles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument, isMap, isNode, isScalar, type Pair } from 'yaml';
import { formatKeyPath, type Problem } from '../shared/problem.js';
import type { PolicyLayer, RawMapping } from './compile.js';

/** A policy file: its name as the operator wrote it, and where it is. */
export interface PolicyFileRef {
  readonly file: string;
  readonly path: string;
}

/** The files used when the config has no `policies:` key. */
export const SHIPPED_POLICY_FILES = [
  'policies/defaults.yaml',
  'policies/a2a.yaml',
  'policies/agui.yaml',
] as const;

/** The shipped policy files inside the package at `root`. */
export function shippedPolicyFiles(root: string): PolicyFileRef[] {
  return SHIPPED_POLICY_FILES.map((file) => ({ file, path: join(root, file) }));
}

const TOP_LEVEL_KEYS = new Set(['scope_mappings', 'description']);

/** Reads one policy file: `{scope_mappings: {"METHOD /pattern": [scopes]}, description?}`. */
export function readPolicyFile(ref: PolicyFileRef): {
  layer: PolicyLayer | null;
  problems: Problem[];
} {
  let text: string;
  try {
    text = readFileSync(ref.path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return {
      layer: null,
      problems: [
        { file: ref.file, key: '', message: `cannot read policy file ${ref.path} (${reason})` },
      ],
    };
  }
  return parsePolicyText(text, ref.file);
}

/** Parses policy YAML text (see {@link readPolicyFile}). */
export function parsePolicyText(
  text: string,
  file: string,
): { layer: PolicyLayer | null; problems: Problem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineAt = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : lines.linePos(offset).line;
  const problems: Problem[] = doc.errors.map((e) => ({
    file,
    key: '',
    line: lineAt(e.pos[0]),
    message: `YAML: ${e.message.split('\n')[0]}`,
  }));
  if (problems.length > 0) return { layer: null, problems };
  const root = doc.contents;
  if (!isMap(root)) {
    return {
      layer: null,
      problems: [{ file, key: '', message: 'expected a mapping with a "scope_mappings" key' }],
    };
  }
  let mappingsNode: unknown;
  let mappingsLine: number | undefined;
  for (const pair of root.items as Pair[]) {
    const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!TOP_LEVEL_KEYS.has(name)) {
      problems.push({
        file,
        key: formatKeyPath([name]),
        line: lineAt(nodeStart(pair.key)),
        message: 'unknown key (expected "scope_mappings" and optionally "description")',
      });
    } else if (
      name === 'description' &&
      !(isScalar(pair.value) && typeof pair.value.value === 'string')
    ) {
      problems.push({
        file,
        key: 'description',
        line: lineAt(nodeStart(pair.key)),
        message: 'expected a string',
      });
    } else if (name === 'scope_mappings') {
      mappingsNode = pair.value;
      mappingsLine = lineAt(nodeStart(pair.key));
    }
  }
  if (mappingsNode === undefined)
    problems.push({
      file,
      key: 'scope_mappings',
      message: 'missing (the map of "METHOD /pattern": [scopes])',
    });
  else if (!isMap(mappingsNode) && !(isScalar(mappingsNode) && mappingsNode.value === null)) {
    problems.push({
      file,
      key: 'scope_mappings',
      line: mappingsLine,
      message: 'expected a map of "METHOD /pattern": [scopes]',
    });
  }
  if (problems.length > 0) return { layer: null, problems };
  const mappings: RawMapping[] = [];
  if (isMap(mappingsNode)) {
    for (const pair of mappingsNode.items as Pair[]) {
      const pattern = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      mappings.push({
        pattern,
        scopes: isNode(pair.value) ? pair.value.toJS(doc) : null,
        origin: {
          file,
          key: formatKeyPath(['scope_mappings', pattern]),
          line: lineAt(nodeStart(pair.key)),
        },
      });
    }
  }
  return { layer: { file, mappings }, problems };
}

function nodeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

/**
 * The `auth.scope_mappings` overrides of a config file as the last layer. `lineOf` gives the
 * line of a key path in that file.
 */
export function overridesLayer(
  file: string,
  mappings: Readonly<Record<string, unknown>>,
  lineOf: (keyPath: readonly (string | number)[]) => number | undefined,
): PolicyLayer {
  return {
    file,
    mappings: Object.entries(mappings).map(([pattern, scopes]) => ({
      pattern,
      scopes,
      origin: {
        file,
        key: formatKeyPath(['auth', 'scope_mappings', pattern]),
        line: lineOf(['auth', 'scope_mappings', pattern]),
      },
    })),
  };
}
