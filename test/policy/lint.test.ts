/**
 * Mapping warnings: a scope namespace that is a near miss of a known one (SGWRN012, with the
 * closest known scope) and a path segment written as a regular expression (SGWRN013).
 */
import t from 'tap';
import { compileLayers, layer } from '../fixtures/policy.js';

/** The warnings of one file of mappings compiled over a shared one. */
function warningsOf(mappings: Record<string, unknown>, adminScope?: string) {
  const result = compileLayers(
    [
      layer('policies/base.yaml', {
        'GET /config': ['config:read'],
        'PATCH /config': ['config:write'],
        'GET /reports': ['reports:read'],
      }),
      layer('gateway.yaml', mappings),
    ],
    adminScope === undefined ? {} : { adminScope },
  );
  t.same(result.problems, []);
  return result.warnings.filter((w) => w.code === 'SGWRN012' || w.code === 'SGWRN013');
}

t.test(
  'a namespace that is a near miss of a known one is named, with the closest scope',
  async (t) => {
    const rows: { name: string; mappings: Record<string, unknown>; expected: object[] }[] = [
      {
        name: 'a family namespace misspelt, and its action too',
        mappings: { 'GET /reports/*': ['agnets:raed'] },
        expected: [
          {
            file: 'gateway.yaml',
            key: 'scope_mappings."GET /reports/*"',
            line: 2,
            code: 'SGWRN012',
            message:
              'scope "agnets:raed": no other mapping, resource family or the admin scope uses the namespace "agnets" (did you mean "agents:read"?)',
          },
        ],
      },
      {
        name: 'a namespace another mapping uses, action kept when none is near',
        mappings: { 'GET /x': ['confg:purge'] },
        expected: [{ code: 'SGWRN012', message: /did you mean "config:purge"\?/ }],
      },
      {
        name: 'a namespace of one mapping with nothing near is meant, not a typo',
        mappings: { 'GET /billing/*': ['billing:read'] },
        expected: [],
      },
      {
        name: 'a namespace used by two mappings is known',
        mappings: { 'GET /confg': ['confg:read'], 'POST /confg': ['confg:write'] },
        expected: [],
      },
      {
        name: 'a known namespace, a per-resource scope and the admin scope',
        mappings: { 'GET /y': ['reports:r1:read', 'agents:run', 'agent_os:admin'] },
        expected: [],
      },
      {
        name: 'near the admin scope namespace',
        mappings: { 'GET /z': ['agent_oss:admin'] },
        expected: [{ code: 'SGWRN012', message: /did you mean "agent_os:admin"\?/ }],
      },
    ];
    for (const row of rows) t.match(warningsOf(row.mappings), row.expected, row.name);
    t.equal(warningsOf({ 'GET /reports/*': ['agnets:raed'] }).length, 1, 'one warning per scope');
  },
);

t.test('a segment that looks like a regular expression is named', async (t) => {
  const rows: [string, string, number][] = [
    ['digits class', 'GET /reports/[0-9]+', 1],
    ['alternation in a group', 'GET /x/(a|b)', 1],
    ['anchors', 'GET /^x$', 1],
    ['two such segments', 'GET /a+/b|c', 2],
    ['literal, wildcard, param and rest', 'GET /a-b.c/*/{id}/**', 0],
  ];
  for (const [name, pattern, count] of rows) {
    const warnings = warningsOf({ [pattern]: ['reports:read'] });
    t.equal(warnings.length, count, name);
    for (const w of warnings) {
      t.equal(w.code, 'SGWRN013', name);
      t.match(w.message, /looks like a regular expression, but segments match literally/, name);
      t.equal(w.key, `scope_mappings.${JSON.stringify(pattern)}`, name);
    }
  }
});
