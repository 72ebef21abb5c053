/**
 * Policy decision tests (`scopegate test-policies`): YAML rows of request + caller → expected
 * status, run through the same decision stages as live traffic. Reads test files; never serves.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import {
  createPrincipal,
  ANONYMOUS,
  type Principal,
  type PrincipalType,
} from '../auth/principal.js';
import { formatKeyPath, type Problem } from '../shared/problem.js';
import { evaluateRequest, type DecisionState, type Evaluation } from './pipeline.js';
import { reject, type Verdict } from './rejections.js';

const caseSchema = z.strictObject({
  name: z.string().min(1),
  request: z.string().regex(/^[A-Z]+ \S+$/, 'expected "METHOD /path[?query]"'),
  scopes: z.array(z.string()).optional(),
  principal: z.enum(['jwt', 'service_account', 'internal', 'security_key', 'anonymous']).optional(),
  expect: z.union([z.literal(200), z.literal(400), z.literal(401), z.literal(403)]),
  required: z.array(z.string()).optional(),
  accessible_resource_ids: z.array(z.string()).nullable().optional(),
  /** The request body: a string as sent, or a mapping sent as its JSON. */
  body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});
const fileSchema = z.strictObject({ tests: z.array(caseSchema) });

/** One decision test row. */
export type PolicyCase = z.infer<typeof caseSchema> & { readonly line?: number | undefined };

/** A row's outcome: `failures` lists each expectation that did not hold. */
export interface CaseResult {
  readonly case: PolicyCase;
  readonly evaluation: Evaluation;
  readonly failures: readonly string[];
}

/** Parses a decision-test file; problems name file, key and line. */
export function parsePolicyCases(
  text: string,
  file: string,
): { cases: PolicyCase[]; problems: Problem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      cases: [],
      problems: doc.errors.map((e) => ({
        file,
        key: '',
        line: lines.linePos(e.pos[0]).line,
        message: `YAML: ${e.message.split('\n')[0]}`,
      })),
    };
  }
  const lineOf = (path: readonly PropertyKey[]): number | undefined => {
    const node = doc.getIn(path as (string | number)[], true) as
      { range?: [number, number, number] } | undefined;
    return node?.range ? lines.linePos(node.range[0]).line : undefined;
  };
  const parsed = fileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    return {
      cases: [],
      problems: parsed.error.issues.map((issue) => {
        const path =
          issue.code === 'unrecognized_keys'
            ? [...issue.path, issue.keys[0] as string]
            : issue.path;
        return {
          file,
          key: formatKeyPath(path as (string | number)[]),
          line: lineOf(issue.path),
          message:
            issue.code === 'unrecognized_keys'
              ? `unknown key(s): ${issue.keys.join(', ')}`
              : issue.message,
        };
      }),
    };
  }
  return {
    cases: parsed.data.tests.map((c, i) => ({ ...c, line: lineOf(['tests', i]) })),
    problems: [],
  };
}

/** Reads and parses a decision-test file. */
export function readPolicyCases(
  path: string,
  file = path,
): { cases: PolicyCase[]; problems: Problem[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return {
      cases: [],
      problems: [
        {
          file,
          key: '',
          message: `cannot read test file (${(err as NodeJS.ErrnoException).code})`,
        },
      ],
    };
  }
  return parsePolicyCases(text, file);
}

/** The principal a row describes: none without `scopes` (unless anonymous), else that kind. */
export function principalFor(row: Pick<PolicyCase, 'scopes' | 'principal'>): Verdict<Principal> {
  const type: PrincipalType = row.principal ?? 'jwt';
  if (type === 'anonymous') return { ok: true, value: ANONYMOUS };
  if (row.scopes === undefined && type === 'jwt') return reject('SG_ERR_AUTH_MISSING');
  return {
    ok: true,
    value: createPrincipal({ type, userId: `test:${type}`, scopes: row.scopes ?? [] }),
  };
}

/** Runs one row through the decision stages and compares every expectation it states. */
export function runPolicyCase(state: DecisionState, row: PolicyCase): CaseResult {
  const space = row.request.indexOf(' ');
  const method = row.request.slice(0, space);
  const target = row.request.slice(space + 1);
  const body =
    row.body === undefined
      ? null
      : Buffer.from(typeof row.body === 'string' ? row.body : JSON.stringify(row.body), 'utf8');
  const evaluation = evaluateRequest(state, method, target, () => principalFor(row), body);
  const failures: string[] = [];
  if (evaluation.status !== row.expect)
    failures.push(`expected ${row.expect}, got ${evaluation.status}`);
  if (row.required !== undefined) {
    const got = evaluation.decision?.required.map((r) => r.raw) ?? [];
    if (got.join(' ') !== row.required.join(' ')) {
      failures.push(`expected required [${row.required.join(', ')}], got [${got.join(', ')}]`);
    }
  }
  if (row.accessible_resource_ids !== undefined) {
    const got = evaluation.decision?.accessibleResourceIds ?? null;
    const want = row.accessible_resource_ids;
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      failures.push(
        `expected accessible_resource_ids ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
      );
    }
  }
  return { case: row, evaluation, failures };
}
