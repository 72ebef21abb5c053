/**
 * The outbound-fetch guard: an undici dispatcher for every URL the runtime fetches on a caller's
 * or a configured source's behalf. Each connection resolves its host once, checks every answer,
 * and connects only to an address it checked, so a name cannot rebind between check and connect.
 * It never connects to a blocked address, nor to the runtime's or the gateway's own listeners.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import {
  canonicalAddress,
  compileAllowList,
  isBlockedAddress,
  isLoopbackAddress,
} from './addresses.js';

/** Resolves a host name to all of its addresses (the I/O seam; tests inject their own). */
export type Lookup = (hostname: string) => Promise<readonly { readonly address: string }[]>;

/** The system resolver (`dns.lookup`, every address, in the resolver's order). */
export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true });

/** The addresses of this machine's interfaces, read on each check (interfaces change). */
function interfaceAddresses(): string[] {
  // Every listed interface has its (possibly empty) list of addresses.
  const lists = Object.values(networkInterfaces()) as NetworkInterfaceInfo[][];
  return lists.flatMap((list) => list.map((info) => canonicalAddress(info.address) as string));
}

/** Why the guard refused a destination (for tests and operators, never for callers). */
export type RefusalReason =
  'blocked_address' | 'own_listener' | 'too_many_redirects' | 'redirect_scheme';

/** The error a refused destination fails its request with; match on `code`. */
export class OutboundRefusal extends Error {
  readonly code = 'SG_OUTBOUND_REFUSED';
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, hostname: string) {
    super(`outbound fetch to ${hostname} refused: ${reason}`);
    this.reason = reason;
  }
}

/** Options of {@link createOutboundGuard}. */
export interface OutboundGuardOptions {
  /** `runtime.knowledge.fetch.allow_hosts`, validated: host names, addresses and CIDRs. */
  readonly allowHosts: readonly string[];
  /** The resolver (default: {@link systemLookup}). */
  readonly lookup?: Lookup;
  /** Listener ports of this process never fetched on a local address (more via `refusePort`). */
  readonly ownPorts?: readonly number[];
  /** This machine's addresses (default: its network interfaces'). */
  readonly localAddresses?: () => readonly string[];
}

/** A guarded dispatcher and the ports it refuses. */
export interface OutboundGuard {
  /** Pass as `dispatcher` to undici's `request`. */
  readonly dispatcher: Dispatcher;
  /** Refuses `port` on every loopback and local-interface address, even one allow_hosts opens. */
  refusePort(port: number): void;
  /** Destroys the dispatcher's connections. */
  close(): Promise<void>;
}

/** Builds the guard; `allowHosts` is compiled here, once. */
export function createOutboundGuard(options: OutboundGuardOptions): OutboundGuard {
  const allow = compileAllowList(options.allowHosts);
  const lookup = options.lookup ?? systemLookup;
  const localAddresses = options.localAddresses ?? interfaceAddresses;
  const ownPorts = new Set(options.ownPorts);

  /** Whether `address:port` is one of this process's own listeners. */
  const isOwnListener = (address: string, port: number): boolean =>
    ownPorts.has(port) && (isLoopbackAddress(address) || localAddresses().includes(address));

  /**
   * The address to connect to for `hostname:port`: an IP literal is checked as it is (Node
   * never resolves one, so a lookup hook alone would miss it); a name is resolved once and the
   * first permitted answer is the one connected to.
   */
  async function permittedAddress(hostname: string, port: number): Promise<string> {
    const literal = canonicalAddress(hostname);
    const byName = literal === null && allow.allowsName(hostname);
    const answers = literal !== null ? [literal] : (await lookup(hostname)).map((a) => a.address);
    let reason: RefusalReason = 'blocked_address';
    for (const answer of answers) {
      // A resolver answer that is not an address is never connected to.
      const address = canonicalAddress(answer);
      if (address === null) continue;
      if (isOwnListener(address, port)) {
        reason = 'own_listener';
        continue;
      }
      if (byName || allow.allowsAddress(address) || !isBlockedAddress(address)) return address;
    }
    throw new OutboundRefusal(reason, hostname);
  }

  // undici's own connector does the TCP/TLS work; it gets the checked address as `hostname`
  // and keeps `host` (the URL's), from which it takes the TLS server name.
  const connectTo = buildConnector({});
  const connect: buildConnector.connector = (target, callback) => {
    const port = target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : +target.port;
    permittedAddress(target.hostname, port).then(
      (address) => connectTo({ ...target, hostname: address }, callback),
      (error: Error) => callback(error, null),
    );
  };
  const agent = new Agent({ connect });
  return {
    dispatcher: agent,
    refusePort: (port) => {
      ownPorts.add(port);
    },
    close: () => agent.destroy(),
  };
}
