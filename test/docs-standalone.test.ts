/**
 * Repository invariant: what users and contributors read stands alone. The shipped docs,
 * sources, policies, deployment files, `gateway.yaml` and `README.md`, and also the tests and
 * benchmarks (comments and test titles), never cite the design files they do not have (SPEC.md,
 * CONTRACT.md, RUNTIME_API.md, STYLE.md), and never leave a bare "§" section reference behind.
 * Only this file names them, to forbid them. A "§" is allowed only after an outside standard
 * (`RFC 9110 §7.6.1`, `HTML §9.2.6`) or as a section of one of our own pages
 * (`docs/runtime.md § AG-UI`). `test/fixtures/` needs no exception.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import t from 'tap';

const ROOT = resolve(import.meta.dirname, '..');

/** The folders and files users get, relative to the repository root. */
const SHIPPED = ['docs', 'src', 'policies', 'deploy', 'gateway.yaml', 'README.md'];

/** The folders contributors read besides them, relative to the repository root. */
const CONTRIBUTED = ['test', 'bench'];

/** The one file that must name the design files: this one, which forbids them. */
const SELF = relative(ROOT, import.meta.filename);

/** The design files users do not have, however they are spelled. */
const FORBIDDEN = /SPEC\.md|\bSPEC\b|CONTRACT|RUNTIME_API|STYLE\.md|\bSTYLE\b/;

/** What may stand right before a "§": an outside standard. */
const STANDARD_BEFORE = /(?:RFC \d+|HTML) $/;

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** The offending places of one file's text, as `line: text` (1-based lines). */
export function offences(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const bareSection = [...line.matchAll(/§/g)].some(
      (m) => line[m.index + 1] !== ' ' && !STANDARD_BEFORE.test(line.slice(0, m.index)),
    );
    if (FORBIDDEN.test(line) || bareSection) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

t.test('the scanner finds each kind of reference and passes the allowed ones', async (t) => {
  const rows: { name: string; line: string; flagged: boolean }[] = [
    { name: 'a SPEC.md citation', line: 'the list (SPEC.md §4.4)', flagged: true },
    { name: 'SPEC without .md', line: 'null = SPEC §4.4 list', flagged: true },
    { name: 'a CONTRACT citation', line: 'the header (CONTRACT §6)', flagged: true },
    { name: 'RUNTIME_API', line: 'Agno runs (RUNTIME_API.md §4)', flagged: true },
    { name: 'STYLE.md', line: 'the layers of STYLE.md', flagged: true },
    { name: 'a bare section', line: 'as §9.16 says', flagged: true },
    { name: 'a bare section in parentheses', line: 'confined (§1)', flagged: true },
    { name: 'an RFC section', line: 'hop-by-hop (RFC 9110 §7.6.1)', flagged: false },
    { name: 'an HTML section', line: 'an event stream (WHATWG HTML §9.2.6)', flagged: false },
    { name: 'a section of our own page', line: 'see docs/runtime.md § AG-UI', flagged: false },
    { name: 'a plain sentence', line: 'the built-in excluded routes', flagged: false },
    { name: 'a lower-case word', line: 'the spec of the protocol, in contract', flagged: false },
  ];
  for (const row of rows) {
    t.equal(offences(row.line).length > 0, row.flagged, row.name);
  }
  t.same(offences('ok\nsee CONTRACT.md\nok'), ['2: see CONTRACT.md'], 'names the 1-based line');
});

t.test('no shipped file cites a design file users do not have', async (t) => {
  const files = SHIPPED.flatMap((path) => filesUnder(join(ROOT, path)));
  t.ok(files.length > 100, `scanned ${files.length} files`);
  const found = files.flatMap((file) =>
    offences(readFileSync(file, 'utf8')).map((o) => `${relative(ROOT, file)}:${o}`),
  );
  t.same(found, [], 'every such place, as file:line: text');
});

t.test('no test or benchmark cites a design file contributors do not have', async (t) => {
  const all = CONTRIBUTED.flatMap((path) => filesUnder(join(ROOT, path)));
  const files = all.filter((file) => relative(ROOT, file) !== SELF);
  t.equal(all.length - files.length, 1, `only ${SELF} is left out`);
  t.ok(files.length > 100, `scanned ${files.length} files`);
  const found = files.flatMap((file) =>
    offences(readFileSync(file, 'utf8')).map((o) => `${relative(ROOT, file)}:${o}`),
  );
  t.same(found, [], 'every such place, as file:line: text');
});
