/**
 * The `runtime.knowledge` keys: defaults, interpolated number text, remote sources, and a
 * problem naming the key for every bad value.
 */
import t from 'tap';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';

const SOURCE = { id: 'docs', name: 'Docs', type: 'url', base_url: 'https://docs.example/kb/' };

t.test('defaults: instance "knowledge", 10 MiB, 10 s, no sources', async (t) => {
  t.same(buildCatalogue({}).settings?.knowledge, {
    name: 'knowledge',
    max_fetch_bytes: 10 * 1024 * 1024,
    fetch_timeout_ms: 10_000,
    fetch: { allow_hosts: [] },
    sources: [],
  });
});

t.test('fetch.allow_hosts keeps host names, addresses and CIDRs as written', async (t) => {
  const allow_hosts = ['Docs.Internal', '10.1.2.3', '10.1.0.0/16', 'fd00::/8', '::1'];
  const { settings, problems } = buildCatalogue({ knowledge: { fetch: { allow_hosts } } });
  t.same(problems, []);
  t.same(settings?.knowledge.fetch, { allow_hosts });
});

t.test('limits take integers or their canonical text; sources are kept', async (t) => {
  const { settings, problems } = buildCatalogue({
    knowledge: {
      name: 'kb',
      description: 'Facts',
      max_fetch_bytes: '2048',
      fetch_timeout_ms: 500,
      sources: [SOURCE],
    },
  });
  t.same(problems, []);
  t.same(settings?.knowledge, {
    name: 'kb',
    description: 'Facts',
    max_fetch_bytes: 2048,
    fetch_timeout_ms: 500,
    fetch: { allow_hosts: [] },
    sources: [SOURCE],
  });
});

t.test('every bad value is a problem naming its key', async (t) => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'zero bytes',
      { max_fetch_bytes: 0 },
      ['runtime.knowledge.max_fetch_bytes: must be an integer from 1 to 1073741824'],
    ],
    [
      'loose number text',
      { fetch_timeout_ms: '1e3' },
      ['runtime.knowledge.fetch_timeout_ms: must be an integer from 1 to 3600000'],
    ],
    [
      'duplicate source ids',
      { sources: [SOURCE, { ...SOURCE, name: 'Again' }] },
      ['runtime.knowledge.sources.1.id: duplicate source id "docs"'],
    ],
    [
      'a file source',
      { sources: [{ ...SOURCE, base_url: 'file:///etc/' }] },
      [
        'runtime.knowledge.sources.0.base_url: must be an http(s) URL without credentials, query or fragment',
      ],
    ],
    [
      'another type',
      { sources: [{ ...SOURCE, type: 's3' }] },
      ['runtime.knowledge.sources.0.type: must be "url"'],
    ],
    ['an unknown key', { cache: true }, ['runtime.knowledge: Unrecognized key: "cache"']],
    [
      'allow_hosts not a list',
      { fetch: { allow_hosts: 'docs.internal' } },
      ['runtime.knowledge.fetch.allow_hosts: must be a list of host names, IP addresses or CIDRs'],
    ],
    [
      'allow_hosts entries that are none of the three forms',
      { fetch: { allow_hosts: ['docs.internal', '*.internal', 'http://wiki/', '10.0.0.0/40', 7] } },
      [
        'runtime.knowledge.fetch.allow_hosts.1: must be a host name (docs.internal), an IP address (10.1.2.3) or a CIDR (10.1.0.0/16, fd00::/8)',
        'runtime.knowledge.fetch.allow_hosts.2: must be a host name (docs.internal), an IP address (10.1.2.3) or a CIDR (10.1.0.0/16, fd00::/8)',
        'runtime.knowledge.fetch.allow_hosts.3: must be a host name (docs.internal), an IP address (10.1.2.3) or a CIDR (10.1.0.0/16, fd00::/8)',
        'runtime.knowledge.fetch.allow_hosts.4: must be a host name (docs.internal), an IP address (10.1.2.3) or a CIDR (10.1.0.0/16, fd00::/8)',
      ],
    ],
    [
      'an unknown fetch key',
      { fetch: { deny_hosts: [] } },
      ['runtime.knowledge.fetch: Unrecognized key: "deny_hosts"'],
    ],
  ];
  for (const [name, knowledge, problems] of cases) {
    t.same(buildCatalogue({ knowledge }).problems, problems, name);
  }
});
