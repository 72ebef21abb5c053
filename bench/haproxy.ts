/**
 * The HAProxy peer of the proxy benchmark (when `haproxy` is installed): one thread, HTTP mode,
 * every request's bearer token verified as RS256 with the bench's public key (no cache: HAProxy
 * has none), `exp` checked, the `scopes` claim (its first four elements) matched against the
 * route (GET /agents/* needs agents:read, POST /agui agents:run, any other route is refused),
 * 401/403 otherwise, and forwarded to the same upstream over
 * reused keep-alive connections. It writes no access log.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startProgram, type Pin, type Target } from './processes.js';

/** Inputs of {@link haproxyConfig}. */
export interface HaproxySettings {
  readonly port: number;
  readonly upstreamPort: number;
  /** The RS256 public key, a PEM file (SPKI). */
  readonly publicKeyFile: string;
}

/** Scope-claim elements an ACL looks at: HAProxy's JSON queries read array elements one by one. */
export const HAPROXY_MAX_SCOPES = 4;

/** ACL `name`: one of the first {@link HAPROXY_MAX_SCOPES} elements of `scopes` is `scope`. */
function scopeAcl(name: string, scope: string): string[] {
  // Lines naming the same ACL are alternatives, tried in order until one matches.
  return Array.from(
    { length: HAPROXY_MAX_SCOPES },
    (_, i) => `    acl ${name} var(txn.bearer),jwt_payload_query('$.scopes[${i}]') -m str ${scope}`,
  );
}

/** haproxy.cfg text for the peer. */
export function haproxyConfig(settings: HaproxySettings): string {
  const key = JSON.stringify(settings.publicKeyFile);
  return [
    'global',
    '    nbthread 1',
    '    maxconn 4096',
    '',
    'defaults',
    '    mode http',
    '    option http-keep-alive',
    '    http-reuse always',
    '    timeout connect 5s',
    '    timeout client 60s',
    '    timeout server 60s',
    '    timeout http-keep-alive 65s',
    '',
    'frontend bench',
    `    bind 127.0.0.1:${settings.port}`,
    '    acl is_get method GET',
    '    acl is_post method POST',
    '    acl agent_path path_beg /agents/',
    '    acl agui_path path /agui',
    ...scopeAcl('read_scope', 'agents:read'),
    ...scopeAcl('run_scope', 'agents:run'),
    '    http-request set-var(txn.bearer) http_auth_bearer',
    '    http-request deny deny_status 401 unless { var(txn.bearer) -m found }',
    "    http-request set-var(txn.alg) var(txn.bearer),jwt_header_query('$.alg')",
    '    http-request deny deny_status 401 unless { var(txn.alg) -m str RS256 }',
    // jwt_verify returns 1 for a good signature, 0 or a negative code otherwise.
    `    http-request deny deny_status 401 unless { var(txn.bearer),jwt_verify(txn.alg,${key}) -m int 1 }`,
    "    http-request set-var(txn.exp) var(txn.bearer),jwt_payload_query('$.exp','int')",
    '    http-request set-var(txn.now) date',
    '    http-request deny deny_status 401 unless { var(txn.exp),sub(txn.now) -m int gt 0 }',
    '    http-request deny deny_status 403 unless is_get agent_path or is_post agui_path',
    '    http-request deny deny_status 403 if is_get agent_path !read_scope',
    '    http-request deny deny_status 403 if is_post agui_path !run_scope',
    '    default_backend upstream',
    '',
    'backend upstream',
    `    server upstream 127.0.0.1:${settings.upstreamPort} maxconn 256`,
    '',
  ].join('\n');
}

/** Writes `<dir>/haproxy.cfg` and starts `haproxy -db` (foreground) on a free port. */
export async function startHaproxy(
  bin: string,
  dir: string,
  settings: Omit<HaproxySettings, 'port'>,
  pin: Pin,
): Promise<Target> {
  const port = await freePort();
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig({ ...settings, port }));
  return startProgram('HAProxy', [bin, '-db', '-f', file], port, pin);
}
