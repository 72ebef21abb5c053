/**
 * The address policy of outbound fetches: every blocked class (and the IPv4-mapped, NAT64 and
 * 6to4 forms of blocked IPv4 addresses) is blocked, public addresses are not, and allow_hosts
 * entries parse as host names, addresses or CIDRs.
 */
import t from 'tap';
import {
  ALLOW_HOST_RULE,
  canonicalAddress,
  compileAllowList,
  isAllowHostEntry,
  isBlockedAddress,
  isLoopbackAddress,
} from '../../../src/runtime/outbound/addresses.js';

t.test('every blocked class is blocked, in each of its forms', async (t) => {
  const rows: [string, string][] = [
    ['loopback', '127.0.0.1'],
    ['loopback, end of 127/8', '127.255.255.254'],
    ['IPv6 loopback', '::1'],
    ['unspecified', '0.0.0.0'],
    ['"this network"', '0.1.2.3'],
    ['IPv6 unspecified', '::'],
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12, its end', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['unique local fc00::/7', 'fc00::1'],
    ['unique local fd00::/8', 'fd12:3456::1'],
    ['link-local', '169.254.0.1'],
    ['cloud metadata', '169.254.169.254'],
    ['IPv6 link-local', 'fe80::1'],
    ['CGNAT', '100.64.0.1'],
    ['CGNAT, its end', '100.127.255.255'],
    ['multicast', '224.0.0.1'],
    ['multicast, its end', '239.255.255.255'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['reserved 240/4', '240.0.0.1'],
    ['IETF protocol assignments', '192.0.0.170'],
    ['documentation', '192.0.2.1'],
    ['documentation', '198.51.100.1'],
    ['documentation', '203.0.113.1'],
    ['benchmarking', '198.19.0.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 documentation (3fff::/20)', '3fff::1'],
    ['Teredo', '2001::1'],
    ['IPv6 site-local', 'fec0::1'],
    ['IPv6 reserved', '4000::1'],
    ['IPv4-compatible IPv6', '::7f00:1'],
    ['discard-only', '100::1'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['NAT64 of loopback', '64:ff9b::7f00:1'],
    ['NAT64 of metadata', '64:ff9b::169.254.169.254'],
    ['6to4 of private', '2002:a00:1::1'],
    ['6to4 of loopback', '2002:7f00:1::'],
    ['NAT64 written out in full', '0064:ff9b:0:0:0:0:a9fe:a9fe'],
  ];
  for (const [name, address] of rows) {
    t.equal(isBlockedAddress(address), true, `${name}: ${address}`);
  }
});

t.test('public addresses are not blocked, nor their NAT64 and 6to4 forms', async (t) => {
  const rows: [string, string][] = [
    ['public IPv4', '93.184.215.14'],
    ['just past 172.16/12', '172.32.0.1'],
    ['just before CGNAT', '100.63.255.255'],
    ['just past CGNAT', '100.128.0.1'],
    ['public IPv6', '2606:4700::1111'],
    ['NAT64 of a public address', '64:ff9b::5db8:d70e'],
    ['6to4 of a public address', '2002:5db8:d70e::1'],
    ['Teredo neighbour outside 2001::/23', '2001:4860::8888'],
  ];
  for (const [name, address] of rows) {
    t.equal(isBlockedAddress(address), false, `${name}: ${address}`);
  }
});

t.test('canonicalAddress: brackets, zones and IPv4-mapped forms; null for names', async (t) => {
  const rows: [string, string | null][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['0:0:0:0:0:ffff:a00:1', '10.0.0.1'],
    ['[::FFFF:A9FE:A9FE]', '169.254.169.254'],
    ['fe80::1%eth0', 'fe80::1'],
    ['FC00::1', 'fc00::1'],
    ['localhost', null],
    ['', null],
    ['1.2.3', null],
  ];
  for (const [text, canonical] of rows) t.equal(canonicalAddress(text), canonical, text);
});

t.test('loopback and unspecified addresses are where own listeners are reached', async (t) => {
  for (const address of ['127.0.0.1', '127.9.9.9', '0.0.0.0', '::1', '::']) {
    t.equal(isLoopbackAddress(address), true, address);
  }
  for (const address of ['10.0.0.1', '192.0.2.2', 'fe80::1', '::2']) {
    t.equal(isLoopbackAddress(address), false, address);
  }
});

t.test('allow_hosts entries: host names, addresses and CIDRs', async (t) => {
  const good = [
    'docs.internal',
    'DOCS.Example.COM',
    'wiki',
    'under_score.internal',
    '127.0.0.1',
    '10.0.0.0/8',
    '0.0.0.0/0',
    '::1',
    '[fd00::1]',
    '[fd00::]/8',
    'fd00::/8',
    '::/0',
    '192.168.1.1/32',
  ];
  for (const entry of good) t.equal(isAllowHostEntry(entry), true, entry);
  const bad = [
    '',
    '*.example.com',
    'http://docs.internal',
    'docs.internal:8080',
    '-dash.example',
    'dash-.example',
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0.0/x',
    'fe80::1%eth0',
    '[fd00::1',
    'docs.internal/8',
    `${'a'.repeat(64)}.example`,
    'a.'.repeat(127) + 'ab',
  ];
  for (const entry of bad) t.equal(isAllowHostEntry(entry), false, JSON.stringify(entry));
});

t.test('a compiled allow list matches names exactly and addresses by CIDR', async (t) => {
  const allow = compileAllowList(['Docs.Internal', '10.1.0.0/16', '127.0.0.1', 'fd00::/8']);
  t.equal(allow.allowsName('docs.internal'), true, 'names are case-insensitive');
  t.equal(allow.allowsName('DOCS.INTERNAL'), true);
  t.equal(allow.allowsName('sub.docs.internal'), false, 'no suffix match');
  t.equal(allow.allowsName('docs'), false, 'no prefix match');
  t.equal(allow.allowsAddress('10.1.255.255'), true);
  t.equal(allow.allowsAddress('10.2.0.0'), false);
  t.equal(allow.allowsAddress('127.0.0.1'), true, 'an address is a one-address CIDR');
  t.equal(allow.allowsAddress('127.0.0.2'), false);
  t.equal(allow.allowsAddress('fd12::1'), true);
  t.equal(allow.allowsAddress('fc00::1'), false);
  t.throws(() => compileAllowList(['*.internal']), {
    name: 'TypeError',
    message: `allow_hosts entry "*.internal" ${ALLOW_HOST_RULE}`,
  });
});
