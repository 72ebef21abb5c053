/**
 * The one reading of an address range in a config: a bare address stands for itself, a prefix
 * must be plain decimal and fit its family, anything else is refused.
 */
import t from 'tap';
import { parseCidr, type Cidr } from '../../src/shared/cidr.js';

t.test('addresses and ranges of both families', async (t) => {
  const rows: { name: string; text: string; want: Cidr }[] = [
    {
      name: 'IPv4 range',
      text: '10.0.0.0/8',
      want: { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
    },
    {
      name: 'a single IPv4 address is a /32',
      text: '127.0.0.1',
      want: { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
    },
    {
      name: 'IPv4 /0 (everything)',
      text: '0.0.0.0/0',
      want: { address: '0.0.0.0', prefix: 0, family: 'ipv4' },
    },
    {
      name: 'IPv4 /32',
      text: '192.168.1.7/32',
      want: { address: '192.168.1.7', prefix: 32, family: 'ipv4' },
    },
    {
      name: 'IPv6 range',
      text: 'fd00::/8',
      want: { address: 'fd00::', prefix: 8, family: 'ipv6' },
    },
    {
      name: 'a single IPv6 address is a /128',
      text: '::1',
      want: { address: '::1', prefix: 128, family: 'ipv6' },
    },
    {
      name: 'IPv6 /128',
      text: '2001:db8::1/128',
      want: { address: '2001:db8::1', prefix: 128, family: 'ipv6' },
    },
    {
      name: 'an IPv4-mapped IPv6 range',
      text: '::ffff:10.0.0.0/104',
      want: { address: '::ffff:10.0.0.0', prefix: 104, family: 'ipv6' },
    },
  ];
  for (const row of rows) t.same(parseCidr(row.text), row.want, row.name);
});

t.test('anything else is refused', async (t) => {
  const rows: { name: string; text: string }[] = [
    { name: 'empty', text: '' },
    { name: 'a name', text: 'lb.internal' },
    { name: 'IPv4 prefix 33', text: '10.0.0.0/33' },
    { name: 'IPv6 prefix 129', text: 'fd00::/129' },
    { name: 'prefix with a leading zero', text: '10.0.0.0/08' },
    { name: 'prefix with a sign', text: '10.0.0.0/+8' },
    { name: 'negative prefix', text: '10.0.0.0/-1' },
    { name: 'prefix of four digits', text: 'fd00::/1000' },
    { name: 'empty prefix', text: '10.0.0.0/' },
    { name: 'prefix only', text: '/8' },
    { name: 'a netmask', text: '10.0.0.0/255.0.0.0' },
    { name: 'a port', text: '10.0.0.1:80' },
    { name: 'brackets', text: '[::1]' },
    { name: 'a zone', text: 'fe80::1%eth0' },
    { name: 'a zone with a prefix', text: 'fe80::%eth0/64' },
    { name: 'surrounding space', text: ' 10.0.0.1' },
  ];
  for (const row of rows) t.equal(parseCidr(row.text), null, row.name);
});
