import t from 'tap';
import {
  canonicalPath,
  parsePathPattern,
  parseRoutePattern,
  PATTERN_METHODS,
  PREFIX_PLACEHOLDER,
  substitutePrefix,
  type Segment,
} from '../../src/policy/pattern.js';

const lit = (value: string): Segment => ({ kind: 'literal', value });
const star: Segment = { kind: 'param', name: null };
const param = (name: string): Segment => ({ kind: 'param', name });
const glob: Segment = { kind: 'glob' };

t.test('parseRoutePattern accepts the documented grammar', async (t) => {
  const rows: {
    name: string;
    pattern: string;
    prefix?: string;
    method: string;
    text: string;
    canonical: string;
    key: string;
    segments: Segment[];
  }[] = [
    {
      name: '`*` is one segment',
      pattern: 'GET /agents/*',
      method: 'GET',
      text: 'GET /agents/*',
      canonical: '/agents/*',
      key: 'GET /agents/*',
      segments: [lit('agents'), star],
    },
    {
      name: '`{name}` is a named `*` and canonicalizes to `*`',
      pattern: 'POST /agents/{agent_id}/runs',
      method: 'POST',
      text: 'POST /agents/{agent_id}/runs',
      canonical: '/agents/*/runs',
      key: 'POST /agents/*/runs',
      segments: [lit('agents'), param('agent_id'), lit('runs')],
    },
    {
      name: '`{_x9}` is a valid parameter name',
      pattern: 'GET /a/{_x9}',
      method: 'GET',
      text: 'GET /a/{_x9}',
      canonical: '/a/*',
      key: 'GET /a/*',
      segments: [lit('a'), param('_x9')],
    },
    {
      name: 'a final `**` is a glob',
      pattern: 'DELETE /files/**',
      method: 'DELETE',
      text: 'DELETE /files/**',
      canonical: '/files/**',
      key: 'DELETE /files/**',
      segments: [lit('files'), glob],
    },
    {
      name: '`/**` alone is a glob at the root',
      pattern: 'GET /**',
      method: 'GET',
      text: 'GET /**',
      canonical: '/**',
      key: 'GET /**',
      segments: [glob],
    },
    {
      name: 'the root `/` has no segments',
      pattern: 'GET /',
      method: 'GET',
      text: 'GET /',
      canonical: '/',
      key: 'GET /',
      segments: [],
    },
    {
      name: 'surrounding whitespace and several spaces or a tab between method and path',
      pattern: '  PATCH \t  /x  ',
      method: 'PATCH',
      text: 'PATCH /x',
      canonical: '/x',
      key: 'PATCH /x',
      segments: [lit('x')],
    },
    {
      name: 'literals may hold `:`, `.`, `-` and `_` (A2A routes)',
      pattern: 'GET /a2a/agents/*/.well-known/agent-card.json',
      method: 'GET',
      text: 'GET /a2a/agents/*/.well-known/agent-card.json',
      canonical: '/a2a/agents/*/.well-known/agent-card.json',
      key: 'GET /a2a/agents/*/.well-known/agent-card.json',
      segments: [lit('a2a'), lit('agents'), star, lit('.well-known'), lit('agent-card.json')],
    },
    {
      name: '`{prefix}` becomes the default prefix /a2a',
      pattern: 'POST {prefix}/agents/*/v1/message:send',
      method: 'POST',
      text: 'POST /a2a/agents/*/v1/message:send',
      canonical: '/a2a/agents/*/v1/message:send',
      key: 'POST /a2a/agents/*/v1/message:send',
      segments: [lit('a2a'), lit('agents'), star, lit('v1'), lit('message:send')],
    },
    {
      name: '`{prefix}` becomes a multi-segment prefix /api/a2a',
      pattern: 'POST {prefix}/message/send',
      prefix: '/api/a2a',
      method: 'POST',
      text: 'POST /api/a2a/message/send',
      canonical: '/api/a2a/message/send',
      key: 'POST /api/a2a/message/send',
      segments: [lit('api'), lit('a2a'), lit('message'), lit('send')],
    },
    {
      name: '`{prefix}` alone is the prefix itself',
      pattern: 'GET {prefix}',
      prefix: '/x',
      method: 'GET',
      text: 'GET /x',
      canonical: '/x',
      key: 'GET /x',
      segments: [lit('x')],
    },
    {
      name: 'literals are case-sensitive and kept as written',
      pattern: 'OPTIONS /Agents/ID',
      method: 'OPTIONS',
      text: 'OPTIONS /Agents/ID',
      canonical: '/Agents/ID',
      key: 'OPTIONS /Agents/ID',
      segments: [lit('Agents'), lit('ID')],
    },
  ];
  for (const row of rows) {
    const result = parseRoutePattern(row.pattern, row.prefix);
    t.same(
      result,
      {
        ok: true,
        value: {
          segments: row.segments,
          canonical: row.canonical,
          method: row.method,
          text: row.text,
          key: row.key,
        },
      },
      row.name,
    );
  }
});

t.test('every pattern method is accepted, HEAD is not one of them', async (t) => {
  t.same([...PATTERN_METHODS], ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
  for (const method of PATTERN_METHODS) {
    const result = parseRoutePattern(`${method} /x`);
    t.ok(result.ok && result.value.method === method, `${method} /x`);
  }
});

t.test('`{id}` and `*` spell one pattern: same key, different text', async (t) => {
  const a = parseRoutePattern('GET /agents/{id}/runs');
  const b = parseRoutePattern('GET /agents/*/runs');
  t.ok(a.ok && b.ok);
  if (!a.ok || !b.ok) return;
  t.equal(a.value.key, b.value.key);
  t.not(a.value.text, b.value.text);
});

const SEGMENT_RULE = 'a segment is a literal, "*", "{name}" or a final "**"';
const METHOD_RULE = 'method must be one of GET, POST, PUT, PATCH, DELETE, OPTIONS in upper case';

t.test('parseRoutePattern refuses malformed patterns with a message saying why', async (t) => {
  const rows: { name: string; pattern: string; message: string }[] = [
    { name: 'no path', pattern: 'GET', message: 'expected "METHOD /path", e.g. "GET /agents/*"' },
    {
      name: 'no method',
      pattern: '/agents',
      message: 'expected "METHOD /path", e.g. "GET /agents/*"',
    },
    { name: 'empty', pattern: '', message: 'expected "METHOD /path", e.g. "GET /agents/*"' },
    {
      name: 'a space inside the path',
      pattern: 'GET /a /b',
      message: 'expected "METHOD /path", e.g. "GET /agents/*"',
    },
    {
      name: 'a method with a digit',
      pattern: 'G3T /a',
      message: 'expected "METHOD /path", e.g. "GET /agents/*"',
    },
    {
      name: 'HEAD is refused (authorized as GET)',
      pattern: 'HEAD /agents',
      message: 'HEAD is authorized as GET: map "GET" instead',
    },
    {
      name: 'head in lower case is refused as HEAD',
      pattern: 'head /agents',
      message: 'HEAD is authorized as GET: map "GET" instead',
    },
    { name: 'lower-case method', pattern: 'get /agents', message: `${METHOD_RULE} (got "get")` },
    { name: 'mixed-case method', pattern: 'Post /agents', message: `${METHOD_RULE} (got "Post")` },
    {
      name: 'unknown method TRACE',
      pattern: 'TRACE /agents',
      message: `${METHOD_RULE} (got "TRACE")`,
    },
    {
      name: 'unknown method CONNECT',
      pattern: 'CONNECT /agents',
      message: `${METHOD_RULE} (got "CONNECT")`,
    },
    {
      name: 'path without a leading "/"',
      pattern: 'GET agents/*',
      message: 'path must start with "/" (got "agents/*")',
    },
    {
      name: 'path with a trailing "/"',
      pattern: 'GET /agents/',
      message: 'trailing "/" is not allowed (request paths drop it before matching)',
    },
    { name: 'empty segment', pattern: 'GET /a//b', message: 'empty segment ("//") is not allowed' },
    {
      name: '`**` before the end',
      pattern: 'GET /**/a',
      message: '"**" is only allowed as the last segment',
    },
    {
      name: '`**` twice',
      pattern: 'GET /a/**/**',
      message: '"**" is only allowed as the last segment',
    },
    { name: 'dot segment', pattern: 'GET /a/./b', message: 'dot segment "." is not allowed' },
    { name: 'dot-dot segment', pattern: 'GET /a/..', message: 'dot segment ".." is not allowed' },
    {
      name: '`*` inside a literal',
      pattern: 'GET /a*',
      message: `segment "a*" contains "*": ${SEGMENT_RULE}`,
    },
    {
      name: '`***`',
      pattern: 'GET /a/***',
      message: `segment "***" contains "*": ${SEGMENT_RULE}`,
    },
    {
      name: 'parameter name starting with a digit',
      pattern: 'GET /{1x}',
      message: `segment "{1x}" contains "{": ${SEGMENT_RULE}`,
    },
    {
      name: 'unclosed parameter',
      pattern: 'GET /{id',
      message: `segment "{id" contains "{": ${SEGMENT_RULE}`,
    },
    {
      name: 'empty parameter',
      pattern: 'GET /a/{}',
      message: `segment "{}" contains "{": ${SEGMENT_RULE}`,
    },
    {
      name: 'stray "}"',
      pattern: 'GET /a}',
      message: `segment "a}" contains "}": ${SEGMENT_RULE}`,
    },
    {
      name: 'percent-escape (paths are matched decoded)',
      pattern: 'GET /a%20b',
      message: `segment "a%20b" contains "%": ${SEGMENT_RULE}`,
    },
    {
      name: 'query',
      pattern: 'GET /a?b=1',
      message: `segment "a?b=1" contains "?": ${SEGMENT_RULE}`,
    },
    {
      name: 'fragment',
      pattern: 'GET /a#b',
      message: `segment "a#b" contains "#": ${SEGMENT_RULE}`,
    },
    {
      name: 'backslash',
      pattern: 'GET /a\\b',
      message: `segment "a\\\\b" contains "\\\\": ${SEGMENT_RULE}`,
    },
    {
      name: 'semicolon',
      pattern: 'GET /a;b',
      message: `segment "a;b" contains ";": ${SEGMENT_RULE}`,
    },
    {
      name: 'NUL',
      pattern: 'GET /a\u0000b',
      message: `segment "a\\u0000b" contains "\\u0000": ${SEGMENT_RULE}`,
    },
    // `{prefix}` is only substituted at the start; anywhere else it must be refused, not read
    // as a parameter named "prefix" (which would match any segment).
    {
      name: '`{prefix}` in the middle',
      pattern: 'GET /x/{prefix}/agents',
      message: '"{prefix}" is only allowed at the start of a path',
    },
    {
      name: '`{prefix}` after a leading "/"',
      pattern: 'GET /{prefix}/agents/*',
      message: '"{prefix}" is only allowed at the start of a path',
    },
  ];
  for (const row of rows) {
    t.same(parseRoutePattern(row.pattern), { ok: false, message: row.message }, row.name);
  }
});

t.test('parsePathPattern parses method-less patterns (excluded routes)', async (t) => {
  t.same(parsePathPattern('/'), { ok: true, value: { segments: [], canonical: '/' } }, 'root');
  t.same(
    parsePathPattern('/public/**'),
    { ok: true, value: { segments: [lit('public'), glob], canonical: '/public/**' } },
    'glob',
  );
  t.same(
    parsePathPattern('/public/*'),
    { ok: true, value: { segments: [lit('public'), star], canonical: '/public/*' } },
    'star',
  );
  t.same(
    parsePathPattern('{prefix}/agents/{id}', '/api/a2a'),
    {
      ok: true,
      value: {
        segments: [lit('api'), lit('a2a'), lit('agents'), param('id')],
        canonical: '/api/a2a/agents/*',
      },
    },
    'prefix substitution',
  );
  t.same(
    parsePathPattern('{prefix}/x'),
    { ok: true, value: { segments: [lit('a2a'), lit('x')], canonical: '/a2a/x' } },
    'default prefix /a2a',
  );
  const bad: [string, string][] = [
    ['health', 'path must start with "/" (got "health")'],
    ['', 'path must start with "/" (got "")'],
    ['/a b', `segment "a b" contains " ": ${SEGMENT_RULE}`],
    ['/a\tb', `segment "a\\tb" contains "\\t": ${SEGMENT_RULE}`],
    ['/docs/', 'trailing "/" is not allowed (request paths drop it before matching)'],
    ['//', 'trailing "/" is not allowed (request paths drop it before matching)'],
  ];
  for (const [path, message] of bad) {
    t.same(parsePathPattern(path), { ok: false, message }, `refuses ${JSON.stringify(path)}`);
  }
});

t.test('substitutePrefix replaces only a leading `{prefix}`', async (t) => {
  t.equal(PREFIX_PLACEHOLDER, '{prefix}');
  t.equal(substitutePrefix('{prefix}/agents', '/api/a2a'), '/api/a2a/agents');
  t.equal(substitutePrefix('{prefix}', '/a2a'), '/a2a');
  t.equal(substitutePrefix('/x{prefix}', '/a2a'), '/x{prefix}');
  t.equal(substitutePrefix('/agents', '/a2a'), '/agents');
});

t.test('canonicalPath spells every one-segment wildcard as `*`', async (t) => {
  t.equal(canonicalPath([]), '/');
  t.equal(canonicalPath([lit('a'), param('id'), star, glob]), '/a/*/*/**');
});
