import t from 'tap';
import type { IncomingHttpHeaders } from 'node:http';
import {
  cookieValue,
  createTokenExtractor,
  tokenFromHeaderValue,
  type ExtractSettings,
} from '../../src/auth/extract.js';

const settings = (over: Partial<ExtractSettings> = {}): ExtractSettings => ({
  token_source: 'HEADER',
  token_header_key: 'Authorization',
  cookie_name: 'access_token',
  ...over,
});

t.test('tokenFromHeaderValue reads `Bearer <token>` or the bare token', async (t) => {
  const rows: {
    name: string;
    value: string | string[] | undefined;
    token: string | undefined;
  }[] = [
    { name: 'Bearer scheme', value: 'Bearer abc.def.ghi', token: 'abc.def.ghi' },
    { name: 'scheme is case-insensitive', value: 'bEaReR abc', token: 'abc' },
    { name: 'several spaces and a tab after the scheme', value: 'Bearer  \t abc', token: 'abc' },
    { name: 'surrounding whitespace is trimmed', value: '  Bearer abc  ', token: 'abc' },
    { name: 'the bare token', value: 'abc.def.ghi', token: 'abc.def.ghi' },
    {
      name: 'a word that only starts like the scheme is a bare token',
      value: 'Bearerabc',
      token: 'Bearerabc',
    },
    { name: '`Bearer` alone is no credential', value: 'Bearer', token: undefined },
    { name: '`Bearer` and spaces is no credential', value: 'Bearer    ', token: undefined },
    { name: 'an empty value is no credential', value: '', token: undefined },
    { name: 'only spaces is no credential', value: '   ', token: undefined },
    { name: 'an absent header is no credential', value: undefined, token: undefined },
    { name: 'a list: its first entry', value: ['Bearer first', 'Bearer second'], token: 'first' },
    { name: 'an empty list', value: [], token: undefined },
  ];
  for (const row of rows) t.equal(tokenFromHeaderValue(row.value), row.token, row.name);
});

t.test('cookieValue takes the first cookie of that name (RFC 6265)', async (t) => {
  const rows: { name: string; header: string | string[] | undefined; value: string | undefined }[] =
    [
      { name: 'one cookie', header: 'access_token=abc', value: 'abc' },
      {
        name: 'among others, spaces around',
        header: 'a=1;  access_token = abc ; b=2',
        value: 'abc',
      },
      { name: 'the first of two', header: 'access_token=one; access_token=two', value: 'one' },
      { name: 'a quoted value loses its quotes', header: 'access_token="abc"', value: 'abc' },
      { name: 'a lone quote is kept', header: 'access_token="', value: '"' },
      { name: 'no URL decoding', header: 'access_token=a%2Eb', value: 'a%2Eb' },
      { name: '= inside the value is kept', header: 'access_token=a=b', value: 'a=b' },
      { name: 'names compare exactly', header: 'Access_Token=abc', value: undefined },
      { name: 'a longer name does not match', header: 'xaccess_token=abc', value: undefined },
      {
        name: 'a pair without = is skipped',
        header: 'access_token; access_token=abc',
        value: 'abc',
      },
      { name: 'an empty value is no cookie', header: 'access_token=', value: undefined },
      { name: 'an empty quoted value is no cookie', header: 'access_token=""', value: undefined },
      { name: 'no cookie header', header: undefined, value: undefined },
      { name: 'a list is read as one header', header: ['a=1', 'access_token=abc'], value: 'abc' },
    ];
  for (const row of rows) t.equal(cookieValue(row.header, 'access_token'), row.value, row.name);
});

t.test('HEADER reads the configured header, case-insensitively', async (t) => {
  const extract = createTokenExtractor(settings({ token_header_key: 'X-Api-Token' }));
  t.same(extract({ 'x-api-token': 'Bearer abc' }), { ok: true, token: 'abc', from: 'header' });
  t.same(
    extract({ authorization: 'Bearer abc' }),
    { ok: false, expected: 'header' },
    'other header ignored',
  );
  t.same(
    extract({ cookie: 'access_token=abc' }),
    { ok: false, expected: 'header' },
    'cookie ignored',
  );
  t.same(extract({ 'x-api-token': 'Bearer ' }), { ok: false, expected: 'header' }, 'Bearer alone');
  t.ok(Object.isFrozen(extract({})), 'the missing answer is shared and frozen');
});

t.test('COOKIE reads the configured cookie only', async (t) => {
  const extract = createTokenExtractor(settings({ token_source: 'COOKIE', cookie_name: 'tok' }));
  t.same(extract({ cookie: 'tok=abc' }), { ok: true, token: 'abc', from: 'cookie' });
  t.same(extract({ authorization: 'Bearer abc' }), { ok: false, expected: 'cookie' });
  t.same(extract({}), { ok: false, expected: 'cookie' });
});

t.test('BOTH uses the first source present, header first', async (t) => {
  const extract = createTokenExtractor(settings({ token_source: 'BOTH' }));
  const rows: { name: string; headers: IncomingHttpHeaders; expected: unknown }[] = [
    {
      name: 'header and cookie: the header, even when the cookie would be valid',
      headers: { authorization: 'Bearer from-header', cookie: 'access_token=from-cookie' },
      expected: { ok: true, token: 'from-header', from: 'header' },
    },
    {
      name: 'cookie only',
      headers: { cookie: 'access_token=from-cookie' },
      expected: { ok: true, token: 'from-cookie', from: 'cookie' },
    },
    {
      name: 'an empty header counts as absent',
      headers: { authorization: '', cookie: 'access_token=from-cookie' },
      expected: { ok: true, token: 'from-cookie', from: 'cookie' },
    },
    {
      name: '`Bearer` alone counts as absent',
      headers: { authorization: 'Bearer ', cookie: 'access_token=from-cookie' },
      expected: { ok: true, token: 'from-cookie', from: 'cookie' },
    },
    { name: 'neither', headers: {}, expected: { ok: false, expected: 'header_or_cookie' } },
  ];
  for (const row of rows) t.same(extract(row.headers), row.expected, row.name);
});
