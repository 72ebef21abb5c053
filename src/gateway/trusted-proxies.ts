/**
 * Who the client is when load balancers stand in front of the gateway: `listen.trusted_proxies`
 * compiled once per config into a `BlockList`, and the client address of one request derived
 * from its socket peer and, only when that peer is trusted, its `X-Forwarded-For`. No I/O;
 * never throws on what a client sent.
 */
import { BlockList, isIP } from 'node:net';
import type { Cidr } from '../shared/cidr.js';
import { parseCidr } from '../shared/cidr.js';

/**
 * `listen.trusted_proxies`, compiled; null when the list is empty, so a gateway with no proxy in
 * front of it does no work at all for this: no header is read and no address is looked up.
 */
export type TrustedProxies = BlockList | null;

/** Compiles `listen.trusted_proxies` (entries already validated by the config schema). */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const range = parseCidr(entry) as Cidr;
    list.addSubnet(range.address, range.prefix, range.family);
  }
  return list;
}

const MAPPED_PREFIX = '::ffff:';

/**
 * An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, what a dual-stack listener reports for an
 * IPv4 peer) written as plain IPv4, any other address as given: one client is then one key
 * (throttle, access log) whichever way it connected.
 */
function unmapped(address: string): string {
  // The hot path: a plain IPv4 peer (and most IPv6 ones) is settled by its first character.
  if (address.charCodeAt(0) !== 0x3a /* : */ || address.length <= MAPPED_PREFIX.length)
    return address;
  if (address.slice(0, MAPPED_PREFIX.length).toLowerCase() !== MAPPED_PREFIX) return address;
  const v4 = address.slice(MAPPED_PREFIX.length);
  return isIP(v4) === 4 ? v4 : address;
}

/** The socket's peer as the gateway names it: `unknown` when the socket has none any more. */
export function peerAddressOf(remoteAddress: string | undefined): string {
  return remoteAddress === undefined ? 'unknown' : unmapped(remoteAddress);
}

/** Whether `address` (plain IPv4 or IPv6, or `unknown`) is one of the trusted proxies. */
export function isTrustedProxy(trusted: BlockList, address: string): boolean {
  // BlockList answers false for text that is not an address of the family (`unknown`); an
  // IPv4-mapped IPv6 address also matches the IPv4 ranges.
  return trusted.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
}

/**
 * One `X-Forwarded-For` entry as an address, or null when it is not a bare IP address: a port
 * (`1.2.3.4:80`), brackets, a zone (`fe80::1%eth0`), `unknown`, an obfuscated name or an empty
 * entry are all malformed.
 */
function entryAddress(entry: string): string | null {
  const address = entry.trim();
  if (address.includes('%') || isIP(address) === 0) return null;
  return unmapped(address);
}

/**
 * The client address behind a trusted `peer`: the chain is the received `X-Forwarded-For`
 * followed by the peer, read from the right. The first address that is not a trusted proxy is
 * the client; when every address is trusted, the left-most one. A malformed entry stops the
 * walk, and the last good address read (the trusted hop that passed the bad entry on) is the
 * client: what lies left of it cannot be read reliably, and no client may pick its own key by
 * sending garbage.
 */
export function clientAddressOf(
  trusted: BlockList,
  peer: string,
  forwardedFor: string | undefined,
): string {
  if (forwardedFor === undefined) return peer;
  let last = peer;
  let end = forwardedFor.length;
  for (;;) {
    const comma = end === 0 ? -1 : forwardedFor.lastIndexOf(',', end - 1);
    const address = entryAddress(forwardedFor.slice(comma + 1, end));
    if (address === null) return last;
    if (!isTrustedProxy(trusted, address)) return address;
    last = address;
    if (comma === -1) return last;
    end = comma;
  }
}
