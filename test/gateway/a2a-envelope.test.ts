/**
 * Reading an A2A JSON-RPC body: strict UTF-8 JSON, one object, a well-formed envelope, no
 * repeated top-level member (as decoded), no tenant, a known method — and on a per-operation
 * path only JSON-RPC bodies are checked, for the path's own method.
 */
import t from 'tap';
import { readA2aCall, repeatedMemberOf } from '../../src/gateway/a2a-envelope.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

t.test('a well-formed call answers its known method', async (t) => {
  const rows: [string, string][] = [
    ['1.0 name', '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{}}}'],
    ['0.3 name', '{"jsonrpc":"2.0","id":"a","method":"tasks/get","params":{"id":"t"}}'],
    ['no params, no id', '{"jsonrpc":"2.0","method":"ListTasks"}'],
    ['id null, negative integer', '{"jsonrpc":"2.0","method":"ListTasks","id":null}'],
    ['an empty tenant', '{"jsonrpc":"2.0","method":"GetTask","params":{"tenant":""},"id":-4}'],
  ];
  for (const [name, body] of rows) {
    const read = readA2aCall(bytes(body), null);
    t.ok(read.ok, name);
  }
  t.same(
    readA2aCall(bytes('\ufeff{"jsonrpc":"2.0","method":"GetTask"}'), null),
    {
      ok: true,
      value: { name: 'GetTask', version: '1.0', action: 'read' },
    },
    'a leading byte-order mark is dropped',
  );
});

t.test('each malformed body has its own code', async (t) => {
  const rows: [string, Buffer, string][] = [
    ['invalid UTF-8', Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), 'SG_ERR_JSONRPC_BODY_NOT_JSON'],
    [
      'a lone surrogate byte run',
      Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]),
      'SG_ERR_JSONRPC_BODY_NOT_JSON',
    ],
    ['not JSON', bytes('{'), 'SG_ERR_JSONRPC_BODY_NOT_JSON'],
    ['empty', bytes(''), 'SG_ERR_JSONRPC_BODY_NOT_JSON'],
    ['a batch', bytes('[]'), 'SG_ERR_JSONRPC_BATCH'],
    ['a number', bytes('1'), 'SG_ERR_JSONRPC_NOT_OBJECT'],
    ['null', bytes('null'), 'SG_ERR_JSONRPC_NOT_OBJECT'],
    ['jsonrpc 2', bytes('{"jsonrpc":2,"method":"GetTask"}'), 'SG_ERR_JSONRPC_VERSION'],
    ['method null', bytes('{"jsonrpc":"2.0","method":null}'), 'SG_ERR_JSONRPC_METHOD_NOT_STRING'],
    [
      'id true',
      bytes('{"jsonrpc":"2.0","method":"GetTask","id":true}'),
      'SG_ERR_JSONRPC_ID_INVALID',
    ],
    [
      'params a string',
      bytes('{"jsonrpc":"2.0","method":"GetTask","params":"x"}'),
      'SG_ERR_JSONRPC_PARAMS_NOT_OBJECT',
    ],
    [
      'tenant a number',
      bytes('{"jsonrpc":"2.0","method":"GetTask","params":{"tenant":0}}'),
      'SG_ERR_JSONRPC_TENANT',
    ],
    ['unknown', bytes('{"jsonrpc":"2.0","method":"tasks/list"}'), 'SG_ERR_JSONRPC_METHOD_UNKNOWN'],
    [
      'inherited name',
      bytes('{"jsonrpc":"2.0","method":"constructor"}'),
      'SG_ERR_JSONRPC_METHOD_UNKNOWN',
    ],
  ];
  for (const [name, body, code] of rows) {
    t.match(readA2aCall(body, null), { ok: false, code }, name);
  }
  t.same(readA2aCall(bytes('{"jsonrpc":"2.0","method":"a","method":"b"}'), null), {
    ok: false,
    code: 'SG_ERR_JSONRPC_DUPLICATE_MEMBER',
    params: { field: 'method' },
  });
});

t.test(
  'on a per-operation path: only a JSON-RPC body is checked, for the path method',
  async (t) => {
    t.same(readA2aCall(bytes('{"message":{},"method":"tasks/get"}'), 'message:send'), {
      ok: true,
      value: null,
    });
    t.match(readA2aCall(bytes('[1]'), 'message:send'), { ok: false, code: 'SG_ERR_JSONRPC_BATCH' });
    t.match(readA2aCall(bytes('{"jsonrpc":null,"method":"message/send"}'), 'message:send'), {
      ok: false,
      code: 'SG_ERR_JSONRPC_VERSION',
    });
    t.same(readA2aCall(bytes('{"jsonrpc":"2.0","method":"message/stream"}'), 'message:send'), {
      ok: false,
      code: 'SG_ERR_JSONRPC_METHOD_PATH_MISMATCH',
      params: { route: 'message:send', methods: ['SendMessage', 'message/send'] },
    });
    t.match(readA2aCall(bytes('{"jsonrpc":"2.0","method":"CancelTask"}'), 'tasks:cancel'), {
      ok: true,
      value: { name: 'CancelTask' },
    });
  },
);

t.test('repeated top-level members are found as JSON decodes the keys', async (t) => {
  const rows: [string, string, string | null][] = [
    ['empty object', ' { } ', null],
    ['no repeat', '{"jsonrpc":"2.0","method":"a","params":{}}', null],
    ['repeat of another key', '{"id":1,"id":2,"method":"a"}', null],
    ['nested repeats do not count', '{"params":{"method":1,"method":2},"method":"a"}', null],
    [
      'strings holding quotes, braces and escapes',
      '{"params":{"t":"}\\"{[","u":["]",{"v":"\\\\"}]},"x":"\\"method\\":","method":"a"}',
      null,
    ],
    ['literals and numbers', '{"a":true,"b":false,"c":null,"d":-1.5e+3,"e":0 ,"method":"x"}', null],
    [
      'whitespace everywhere',
      '\n{\t"method" :\r\n"a" ,\n "params" : [ ] , "method" : "b" }',
      'method',
    ],
    ['escaped key', '{"method":"a","\\u006dethod":"b"}', 'method'],
    ['escaped other key', '{"\\u0069d":1,"params":1,"params":2}', 'params'],
    [
      'jsonrpc twice after a nested value',
      '{"jsonrpc":"2.0","p":{"a":[{}]},"jsonrpc":"1.0"}',
      'jsonrpc',
    ],
    ['a number at the end', '{"method":"a","id":12}', null],
  ];
  for (const [name, text, expected] of rows) {
    JSON.parse(text);
    t.equal(repeatedMemberOf(text), expected, name);
  }
});
