/**
 * The one reading of an address range written in a config: `10.0.0.0/8`, `fd00::/8`, or a
 * single address (`10.0.0.7`, `::1`), which stands for itself alone. Pure: no I/O.
 */
import { isIP } from 'node:net';

/** An address range: a base address and how many leading bits of it must match. */
export interface Cidr {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

// A prefix length in its plain decimal form only ("08" or "+8" would be read two ways).
const PREFIX = /^(?:0|[1-9][0-9]{0,2})$/;

/**
 * Reads `text` as an address or `address/prefix`; null when it is neither, or the prefix is
 * longer than the family allows (32 bits for IPv4, 128 for IPv6). A zone (`fe80::1%eth0`) is
 * refused: a range never names an interface.
 */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  if (slash === -1) return { address, prefix: bits, family: version === 4 ? 'ipv4' : 'ipv6' };
  const written = text.slice(slash + 1);
  const prefix = PREFIX.test(written) ? Number(written) : Number.NaN;
  if (!(prefix <= bits)) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** What a value that {@link parseCidr} refuses is told. */
export const CIDR_RULE =
  'must be an IP address or a CIDR range (like 10.0.0.0/8, 192.168.1.7 or fd00::/8)';
