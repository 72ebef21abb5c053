import t from 'tap';
import { REJECTIONS, type RejectionCode } from '../../../src/gateway/rejections.js';
import { normalizePath } from '../../../src/gateway/stages/normalize.js';

t.test('every malformed path is refused with 400 and its code', async (t) => {
  const rows: { name: string; target: string; code: RejectionCode; detail: string }[] = [];
  const add = (code: RejectionCode, detail: string, targets: [string, string][]): void => {
    for (const [name, target] of targets) rows.push({ name, target, code, detail });
  };
  add(
    'SG_ERR_PATH_ENCODED_SEPARATOR',
    'Invalid request path: an encoded "/", "\\" or NUL (%2F, %5C, %00) is not allowed',
    [
      ['encoded "/" %2F', '/agents/a%2Fb/runs'],
      ['encoded "/" %2f', '/agents/a%2fb'],
      ['encoded "\\" %5C', '/agents/a%5Cb'],
      ['encoded "\\" %5c', '/agents/a%5cb'],
      ['encoded NUL %00', '/agents/a%00'],
      ['an encoded "/" that would form ".." with neighbours', '/a/..%2F..%2Fadmin'],
    ],
  );
  add(
    'SG_ERR_PATH_FORBIDDEN_CHARACTER',
    'Invalid request path: "\\", NUL, ";" and "#" are not allowed in the path',
    [
      ['raw "\\"', '/agents\\a1'],
      ['raw NUL', '/agents/a\u0000'],
      ['raw ";" (path parameters)', '/agents/a1;jsessionid=x'],
      ['raw ";" alone', '/;'],
      ['raw "#"', '/agents/a1#frag'],
      ['raw "\\" before an encoded separator is reported first', '/a\\%2F'],
    ],
  );
  add(
    'SG_ERR_PATH_DOUBLE_ENCODED',
    'Invalid request path: double percent-encoding (%25XX) is not allowed',
    [
      ['double-encoded "/" %252F', '/agents/a%252Fb'],
      ['double-encoded "A" %2541', '/agents/%2541'],
      ['double-encoded, lower case %252f', '/x/%252f'],
      ['an escape that survives one decoding %25%32%46', '/x/a%25%32%46b'],
      ['double-encoded %25ff', '/x/%25ff'],
    ],
  );
  add('SG_ERR_PATH_EMPTY_SEGMENT', 'Invalid request path: empty path segment ("//")', [
    ['"//" in the middle', '/agents//a1'],
    ['"//" at the start', '//agents'],
    ['"//" alone', '//'],
    ['"/a//": one trailing slash is dropped, the other is an empty segment', '/a//'],
    ['"//" in the middle with a query', '/a//b?x=1'],
  ]);
  add('SG_ERR_PATH_DOT_SEGMENT', 'Invalid request path: "." and ".." segments are not allowed', [
    ['"."', '/a/./b'],
    ['".." ', '/a/../b'],
    ['"/." alone', '/.'],
    ['"/.." alone', '/..'],
    ['trailing ".."', '/agents/a1/..'],
    ['"../" (the trailing slash is dropped first)', '/agents/../'],
    ['"%2e%2e"', '/agents/%2e%2e/admin'],
    ['"%2E%2E"', '/agents/%2E%2E'],
    ['"%2E"', '/a/%2E/b'],
    ['".%2e"', '/a/.%2e/b'],
    ['"%2e." ', '/a/%2e./b'],
    ['".." before a query', '/a/..?x=1'],
  ]);
  add(
    'SG_ERR_PATH_INVALID_ENCODING',
    'Invalid request path: malformed percent-encoding or invalid UTF-8',
    [
      ['invalid UTF-8 %ff', '/agents/%ff'],
      ['a lone continuation byte %80', '/a/%80'],
      ['overlong "/" %C0%AF', '/a/%C0%AF'],
      ['a UTF-16 surrogate %ED%A0%80', '/a/%ED%A0%80'],
      ['a truncated sequence %C3', '/a/caf%C3'],
      ['malformed %zz', '/agents/%zz'],
      ['truncated %4', '/agents/a%4'],
      ['a lone "%"', '/agents/a%'],
    ],
  );
  add(
    'SG_ERR_PATH_NOT_ORIGIN_FORM',
    'Invalid request path: the request target must be a path starting with "/"',
    [
      ['asterisk-form "*"', '*'],
      ['authority-form "example.com:443"', 'example.com:443'],
      ['empty target', ''],
      ['a relative path', 'agents/a1'],
      ['only a query', '?x=1'],
    ],
  );
  for (const row of rows) {
    const verdict = normalizePath(row.target);
    t.same(verdict, { ok: false, code: row.code }, `${row.name}: ${row.code}`);
    if (!verdict.ok) {
      const rejection = REJECTIONS[verdict.code];
      t.equal(rejection.status, 400, `${row.name}: 400`);
      t.equal(rejection.detail, row.detail, `${row.name}: detail`);
    }
  }
});

t.test('well-formed targets: path as received, decoded segments, query untouched', async (t) => {
  const rows: { name: string; target: string; path: string; segments: string[]; query: string }[] =
    [
      { name: 'the root stays "/"', target: '/', path: '/', segments: [], query: '' },
      { name: 'the root with a query', target: '/?x=1', path: '/', segments: [], query: '?x=1' },
      {
        name: 'a plain path',
        target: '/agents/a1/runs',
        path: '/agents/a1/runs',
        segments: ['agents', 'a1', 'runs'],
        query: '',
      },
      {
        name: 'one trailing slash is dropped',
        target: '/a/',
        path: '/a',
        segments: ['a'],
        query: '',
      },
      {
        name: 'a trailing slash before a query is dropped',
        target: '/agents/?limit=5',
        path: '/agents',
        segments: ['agents'],
        query: '?limit=5',
      },
      {
        name: 'segments keep their case',
        target: '/Agents/A1',
        path: '/Agents/A1',
        segments: ['Agents', 'A1'],
        query: '',
      },
      {
        name: '"%20" decodes to a space; the forwarded path stays encoded',
        target: '/agents/my%20agent',
        path: '/agents/my%20agent',
        segments: ['agents', 'my agent'],
        query: '',
      },
      {
        name: '"%3B" decodes to ";" (only a raw ";" is refused)',
        target: '/x/%3B',
        path: '/x/%3B',
        segments: ['x', ';'],
        query: '',
      },
      {
        name: 'UTF-8 "%C3%A9" decodes to "é"',
        target: '/agents/caf%C3%A9',
        path: '/agents/caf%C3%A9',
        segments: ['agents', 'café'],
        query: '',
      },
      {
        name: 'an escaped letter decodes once',
        target: '/agents/%41/',
        path: '/agents/%41',
        segments: ['agents', 'A'],
        query: '',
      },
      {
        name: 'a single "%25" decodes to "%"',
        target: '/x/100%25',
        path: '/x/100%25',
        segments: ['x', '100%'],
        query: '',
      },
      {
        name: '"%25" not followed by two hex digits is no double encoding',
        target: '/x/%25zz',
        path: '/x/%25zz',
        segments: ['x', '%zz'],
        query: '',
      },
      {
        name: 'encoded "?" and "#" are data inside a segment',
        target: '/x/a%3Fb%23c',
        path: '/x/a%3Fb%23c',
        segments: ['x', 'a?b#c'],
        query: '',
      },
      {
        name: 'segments without "%" are left alone when others are decoded',
        target: '/a/%41/b',
        path: '/a/%41/b',
        segments: ['a', 'A', 'b'],
        query: '',
      },
      {
        name: 'dots inside a segment are fine',
        target: '/a/.well-known/x..y/...',
        path: '/a/.well-known/x..y/...',
        segments: ['a', '.well-known', 'x..y', '...'],
        query: '',
      },
      {
        name: 'colons are fine (A2A routes)',
        target: '/a2a/agents/a1/v1/message:send',
        path: '/a2a/agents/a1/v1/message:send',
        segments: ['a2a', 'agents', 'a1', 'v1', 'message:send'],
        query: '',
      },
      {
        name: 'the query is kept untouched and never checked',
        target: '/agents?next=/a/../b%2F;x#y&q=%ff',
        path: '/agents',
        segments: ['agents'],
        query: '?next=/a/../b%2F;x#y&q=%ff',
      },
      {
        name: 'a second "?" belongs to the query',
        target: '/a?b?c',
        path: '/a',
        segments: ['a'],
        query: '?b?c',
      },
      {
        name: 'an empty query keeps its "?"',
        target: '/a?',
        path: '/a',
        segments: ['a'],
        query: '?',
      },
      {
        name: 'absolute-form: only the path is used',
        target: 'http://evil.example/x?y',
        path: '/x',
        segments: ['x'],
        query: '?y',
      },
      {
        name: 'absolute-form with port, user info and upper-case scheme',
        target: 'HTTPS://user@evil.example:8443/a/b/',
        path: '/a/b',
        segments: ['a', 'b'],
        query: '',
      },
      {
        name: 'absolute-form with no path is the root',
        target: 'http://evil.example',
        path: '/',
        segments: [],
        query: '',
      },
      {
        name: 'absolute-form with no path but a query is the root with that query',
        target: 'http://evil.example?y=1',
        path: '/',
        segments: [],
        query: '?y=1',
      },
    ];
  for (const row of rows) {
    t.same(
      normalizePath(row.target),
      { ok: true, value: { path: row.path, segments: row.segments, query: row.query } },
      row.name,
    );
  }
});

t.test('absolute-form paths are checked like any other', async (t) => {
  t.same(normalizePath('http://evil.example/a/%2e%2e/admin'), {
    ok: false,
    code: 'SG_ERR_PATH_DOT_SEGMENT',
  });
  t.same(normalizePath('http://evil.example//x'), { ok: false, code: 'SG_ERR_PATH_EMPTY_SEGMENT' });
  t.same(normalizePath('http://evil.example/a%2Fb'), {
    ok: false,
    code: 'SG_ERR_PATH_ENCODED_SEPARATOR',
  });
});

t.test('the forwarded path decodes to exactly the authorized segments', async (t) => {
  for (const target of ['/agents/a%20b/runs/', '/x/caf%C3%A9', '/a/%41%42/c', '/', '/a/b']) {
    const verdict = normalizePath(target);
    if (!verdict.ok) {
      t.fail(`${target} refused`);
      continue;
    }
    const { path, segments } = verdict.value;
    const decoded =
      path === '/'
        ? []
        : path
            .slice(1)
            .split('/')
            .map((s) => decodeURIComponent(s));
    t.same(decoded, segments, target);
  }
});
