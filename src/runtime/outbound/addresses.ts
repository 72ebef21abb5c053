/**
 * Which IP addresses an outbound fetch may connect to: the blocked ranges (loopback, private,
 * link-local, CGNAT, multicast, reserved…) in a `net.BlockList` per family built at load, and the
 * operator's `allow_hosts` entries (host names, addresses, CIDRs). Pure: no I/O.
 */
import { BlockList, isIP, isIPv6 } from 'node:net';
import { parseCidr, type Cidr } from '../../shared/cidr.js';

/** One blocked range: its first address, prefix length, and why it is blocked. */
type Range = readonly [address: string, prefix: number, why: string];

/**
 * Ranges never fetched (unless `allow_hosts` opens one). IPv4-mapped (`::ffff:a.b.c.d`), NAT64
 * (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::`) IPv6 forms are checked as the IPv4 address
 * they carry, so every IPv4 row also covers those forms. Of IPv6 only 2000::/3 is global unicast:
 * the three rows outside it cover unspecified (::), loopback (::1), IPv4-compatible, discard-only
 * and local NAT64 addresses, unique local (fc00::/7), link-local (fe80::/10), site-local and
 * multicast (ff00::/8).
 */
const BLOCKED: readonly Range[] = [
  ['0.0.0.0', 8, 'unspecified, "this network"'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'shared address space, CGNAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, cloud metadata (169.254.169.254)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.88.99.0', 24, '6to4 relay anycast (deprecated)'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, and the broadcast address 255.255.255.255'],
  ['::', 3, 'not global unicast: unspecified, loopback, IPv4-compatible, discard, local NAT64'],
  ['4000::', 2, 'not global unicast (reserved)'],
  ['8000::', 1, 'not global unicast: unique local fc00::/7, link-local fe80::/10, multicast'],
  ['2001::', 23, 'IETF protocol assignments (Teredo, ORCHID, benchmarking)'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
];

/**
 * Built once at load; read on every connection. One list per family: a `BlockList` also checks
 * an IPv4 address against IPv6 rules (as ::ffff:a.b.c.d), which ::/3 would always match.
 */
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [address, prefix] of BLOCKED) {
  if (isIPv6(address)) blockedV6.addSubnet(address, prefix, 'ipv6');
  else blockedV4.addSubnet(address, prefix, 'ipv4');
}

/** Loopback and unspecified addresses: where a listener on this machine is reached. */
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addSubnet('0.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
loopback.addAddress('::', 'ipv6');

/** The address family as `net.BlockList` names it, or null for text that is not an address. */
function familyOf(address: string): 'ipv4' | 'ipv6' | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/** The eight 16-bit words of a valid IPv6 address (a trailing dotted quad included). */
function ipv6Words(address: string): number[] {
  const words = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const left = words(head);
  if (tail === undefined) return left;
  const right = words(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The dotted IPv4 text of two 16-bit words. */
function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address carries, or null: a
 * translator or relay delivers those to that IPv4 address, so they are judged as it.
 * (IPv4-mapped addresses are already IPv4 once canonical.)
 */
function embeddedIpv4(address: string): string | null {
  const [w0, w1 = 0, w2 = 0, w3, w4, w5, w6 = 0, w7 = 0] = ipv6Words(address);
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return ipv4Of(w6, w7);
  }
  return w0 === 0x2002 ? ipv4Of(w1, w2) : null;
}

/**
 * `text` as a plain address to judge: brackets and an IPv6 zone (`%eth0`) dropped, an
 * IPv4-mapped IPv6 address turned into its IPv4 address. Null when it is not an IP address.
 */
export function canonicalAddress(text: string): string | null {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (familyOf(address) === null) return null;
  if (!isIPv6(address)) return address;
  const words = ipv6Words(address);
  const mapped = words.slice(0, 6).join(',') === '0,0,0,0,0,65535';
  return mapped ? ipv4Of(words[6] as number, words[7] as number) : address.toLowerCase();
}

/**
 * Whether `address` (canonical, see {@link canonicalAddress}) is in a blocked range. An
 * address that carries an IPv4 address is judged as that address.
 */
export function isBlockedAddress(address: string): boolean {
  if (!isIPv6(address)) return blockedV4.check(address, 'ipv4');
  const carried = embeddedIpv4(address);
  return carried !== null ? blockedV4.check(carried, 'ipv4') : blockedV6.check(address, 'ipv6');
}

/** Whether `address` (canonical) is a loopback or unspecified address. */
export function isLoopbackAddress(address: string): boolean {
  return loopback.check(address, familyOf(address) as 'ipv4' | 'ipv6');
}

/** The operator's `allow_hosts`, compiled: exact host names and a list of addresses/CIDRs. */
export interface AllowList {
  /** Whether the URL host `hostname` is listed by name (case-insensitive, exact). */
  allowsName(hostname: string): boolean;
  /** Whether `address` (canonical) is in a listed address or CIDR. */
  allowsAddress(address: string): boolean;
}

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`, 'i');

/**
 * An `allow_hosts` entry, parsed; null when it is none of the three forms. Addresses and ranges
 * are read as the gateway reads `listen.trusted_proxies`; an IPv6 address may also be bracketed,
 * as it is written in a URL.
 */
function parseEntry(entry: string): { name: string } | Cidr | null {
  const bracketed = /^\[([^\]]*)\](\/.*)?$/.exec(entry);
  const range = parseCidr(bracketed === null ? entry : `${bracketed[1]}${bracketed[2] ?? ''}`);
  if (range !== null) return range;
  return HOST_NAME.test(entry) ? { name: entry } : null;
}

/** The rule an `allow_hosts` entry breaks, for configuration errors. */
export const ALLOW_HOST_RULE =
  'must be a host name (docs.internal), an IP address (10.1.2.3) or a CIDR (10.1.0.0/16, fd00::/8)';

/** Whether `entry` is a valid `allow_hosts` entry. */
export function isAllowHostEntry(entry: string): boolean {
  return parseEntry(entry) !== null;
}

/**
 * Compiles `allow_hosts` entries (each valid, see {@link isAllowHostEntry}): host names match
 * the URL's host exactly, case-insensitively; an address is a one-address CIDR; CIDRs match the
 * address connected to (an IPv4 CIDR also matches its IPv4-mapped IPv6 form).
 */
export function compileAllowList(entries: readonly string[]): AllowList {
  const names = new Set<string>();
  const addresses = new BlockList();
  for (const entry of entries) {
    const parsed = parseEntry(entry);
    if (parsed === null) throw new TypeError(`allow_hosts entry "${entry}" ${ALLOW_HOST_RULE}`);
    if ('name' in parsed) names.add(parsed.name.toLowerCase());
    else addresses.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return {
    allowsName: (hostname) => names.has(hostname.toLowerCase()),
    allowsAddress: (address) => addresses.check(address, familyOf(address) as 'ipv4' | 'ipv6'),
  };
}
