/**
 * Who the client is behind load balancers: the chain is the received X-Forwarded-For followed
 * by the socket peer, read from the right; the first address that is not a trusted proxy is the
 * client, the left-most when all are trusted; a malformed entry stops the walk at the last good
 * address; IPv4-mapped IPv6 addresses match IPv4 ranges.
 */
import t from 'tap';
import {
  clientAddressOf,
  createTrustedProxies,
  isTrustedProxy,
  peerAddressOf,
} from '../../src/gateway/trusted-proxies.js';

// Two load-balancer tiers: an edge range and one internal address, plus an IPv6 range.
const TRUSTED = createTrustedProxies(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);

t.test('an empty list compiles to nothing: no look-up is ever made', async (t) => {
  t.equal(createTrustedProxies([]), null);
  t.not(TRUSTED, null);
});

t.test('which addresses are trusted proxies', async (t) => {
  const list = TRUSTED!;
  const rows: { name: string; address: string; want: boolean }[] = [
    { name: 'inside a v4 range', address: '10.20.30.40', want: true },
    { name: 'a single listed address', address: '192.168.1.7', want: true },
    { name: 'next to the single address', address: '192.168.1.8', want: false },
    { name: 'outside every range', address: '203.0.113.9', want: false },
    { name: 'inside a v6 range', address: 'fd12::1', want: true },
    { name: 'outside the v6 range', address: '2001:db8::1', want: false },
    { name: 'v4-mapped v6 inside a v4 range', address: '::ffff:10.0.0.1', want: true },
    { name: 'v4-mapped v6 outside', address: '::ffff:203.0.113.9', want: false },
    { name: 'not an address', address: 'unknown', want: false },
  ];
  for (const row of rows) t.equal(isTrustedProxy(list, row.address), row.want, row.name);
});

t.test('the peer as the gateway names it', async (t) => {
  const rows: { name: string; remote: string | undefined; want: string }[] = [
    { name: 'IPv4', remote: '203.0.113.9', want: '203.0.113.9' },
    { name: 'IPv6', remote: '2001:db8::1', want: '2001:db8::1' },
    { name: 'IPv4-mapped IPv6 (dual-stack listener)', remote: '::ffff:10.0.0.1', want: '10.0.0.1' },
    { name: 'mapped, upper case', remote: '::FFFF:10.0.0.1', want: '10.0.0.1' },
    { name: 'starts like mapped, but is not', remote: '::ffff:1:2', want: '::ffff:1:2' },
    { name: 'just the prefix', remote: '::ffff:', want: '::ffff:' },
    { name: 'the loopback', remote: '::1', want: '::1' },
    { name: 'a compressed IPv6 address', remote: '::abcd:1234', want: '::abcd:1234' },
    { name: 'a socket with no peer any more', remote: undefined, want: 'unknown' },
  ];
  for (const row of rows) t.equal(peerAddressOf(row.remote), row.want, row.name);
});

t.test('the client address behind a trusted peer', async (t) => {
  const list = TRUSTED!;
  const rows: { name: string; peer: string; xff: string | undefined; want: string }[] = [
    { name: 'no X-Forwarded-For: the peer', peer: '10.0.0.1', xff: undefined, want: '10.0.0.1' },
    { name: 'one hop', peer: '10.0.0.1', xff: '203.0.113.9', want: '203.0.113.9' },
    {
      name: 'a spoofed left part is ignored: the right-most untrusted address',
      peer: '10.0.0.1',
      xff: '1.1.1.1, 2.2.2.2, 203.0.113.9',
      want: '203.0.113.9',
    },
    {
      name: 'through two trusted tiers',
      peer: '10.0.0.1',
      xff: '203.0.113.9, 192.168.1.7, 10.9.9.9',
      want: '203.0.113.9',
    },
    {
      name: 'all trusted: the left-most',
      peer: '10.0.0.1',
      xff: '10.1.1.1, 192.168.1.7',
      want: '10.1.1.1',
    },
    {
      name: 'no spaces after commas',
      peer: '10.0.0.1',
      xff: '198.51.100.1,203.0.113.9,10.2.2.2',
      want: '203.0.113.9',
    },
    {
      name: 'tabs and extra spaces',
      peer: '10.0.0.1',
      xff: '198.51.100.1 ,\t203.0.113.9 ',
      want: '203.0.113.9',
    },
    {
      name: 'an IPv6 client through an IPv6 proxy',
      peer: 'fd00::2',
      xff: '2001:db8::7, fd00::1',
      want: '2001:db8::7',
    },
    {
      name: 'a v4-mapped hop matches the v4 range and is skipped',
      peer: '10.0.0.1',
      xff: '203.0.113.9, ::ffff:10.3.3.3',
      want: '203.0.113.9',
    },
    {
      name: 'a v4-mapped client is written as IPv4',
      peer: '10.0.0.1',
      xff: '::FFFF:203.0.113.9',
      want: '203.0.113.9',
    },
    {
      name: 'malformed right after the peer: the peer',
      peer: '10.0.0.1',
      xff: '203.0.113.9, garbage',
      want: '10.0.0.1',
    },
    {
      name: 'malformed behind a trusted hop: that hop',
      peer: '10.0.0.1',
      xff: '203.0.113.9, unknown, 10.5.5.5',
      want: '10.5.5.5',
    },
    {
      name: 'malformed left of the client does not matter',
      peer: '10.0.0.1',
      xff: 'garbage, 203.0.113.9, 10.5.5.5',
      want: '203.0.113.9',
    },
    { name: 'an address with a port', peer: '10.0.0.1', xff: '203.0.113.9:4711', want: '10.0.0.1' },
    { name: 'a bracketed IPv6', peer: '10.0.0.1', xff: '[2001:db8::7]', want: '10.0.0.1' },
    { name: 'a zone', peer: '10.0.0.1', xff: 'fe80::1%eth0', want: '10.0.0.1' },
    { name: 'an empty header', peer: '10.0.0.1', xff: '', want: '10.0.0.1' },
    { name: 'an empty entry', peer: '10.0.0.1', xff: '10.1.1.1,, 10.2.2.2', want: '10.2.2.2' },
    { name: 'a leading comma', peer: '10.0.0.1', xff: ',10.2.2.2', want: '10.2.2.2' },
    { name: 'a trailing comma', peer: '10.0.0.1', xff: '203.0.113.9,', want: '10.0.0.1' },
  ];
  for (const row of rows) t.equal(clientAddressOf(list, row.peer, row.xff), row.want, row.name);
});
