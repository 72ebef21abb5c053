/**
 * Which URLs the gateway may fetch security material from (an OpenID configuration, the JWK set
 * it names): `https:`, or plain `http:` to this machine only. Pure; never fetches.
 */

/**
 * Whether a URL's `hostname` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or
 * the IPv6 loopback `[::1]` (as `URL.hostname` writes it).
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * Whether `value` is an absolute `https:` URL, or an `http:` URL whose host is loopback. Keys
 * fetched in clear text over a network could be swapped by anyone on the path, who could then
 * mint tokens the gateway accepts; on loopback (a sidecar, a test) nobody is on the path.
 */
export function isHttpsOrLoopbackUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
