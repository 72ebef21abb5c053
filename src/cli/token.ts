/**
 * `scopegate token [--config F] --sub S --scopes a,b [--ttl 1h] [--aud X] [--claim k=v]...`:
 * mint a development JWT with the development signing key. Prints only the
 * token, so `TOKEN=$(scopegate token …)` works. Refuses when no development key is configured.
 */
import { parseArgs } from 'node:util';
import { loadOrCreateDevKeys } from '../auth/jwt/dev-keys.js';
import { mintToken } from '../auth/jwt/mint.js';
import { loadConfig } from '../config/load.js';
import { systemClock } from '../shared/clock.js';
import { ConfigError, formatProblem } from '../shared/problem.js';
import type { Command } from './io.js';
import { DEFAULT_CONFIG } from './load.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `90`, `90s`, `15m`, `1h`, `7d` → seconds; null when malformed. */
export function parseTtl(text: string): number | null {
  const match = /^(\d+)([smhd]?)$/.exec(text);
  if (!match) return null;
  const seconds = Number(match[1]) * (UNITS[match[2] || 's'] as number);
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : null;
}

/** `scopegate token`'s options. */
export const TOKEN = defineCommand({
  usage: 'token [options] --sub S',
  summary:
    'Mint a development JWT with the development signing key (auth.dev_keys) and print only\n' +
    'the token, so TOKEN=$(scopegate token ...) works.',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    sub: { type: 'string' },
    scopes: { type: 'string', default: '' },
    ttl: { type: 'string', default: '1h' },
    aud: { type: 'string' },
    claim: { type: 'string', multiple: true, default: [] as string[] },
  },
  help: {
    config: CONFIG_HELP,
    sub: { value: 'S', text: 'the subject (user id); required' },
    scopes: { value: 'a,b', text: 'the scopes the token holds' },
    ttl: { value: 'T', text: 'lifetime: 90s, 15m, 1h or 7d' },
    aud: { value: 'X', text: "the audience (aud claim; default: the config's service_id)" },
    claim: { value: 'k=v', text: 'one more string claim' },
  },
});

export const token: Command = async (args, io) => {
  if (helpRequested(args)) {
    io.out(usageOf(TOKEN));
    return 0;
  }
  const { values } = parseArgs({ args: [...args], options: TOKEN.options, strict: true });
  if (values.sub === undefined || values.sub === '') {
    io.err(usageOf(TOKEN));
    return 2;
  }
  const ttlSeconds = parseTtl(values.ttl);
  if (ttlSeconds === null) {
    io.err(`scopegate token: --ttl must look like 90s, 15m, 1h or 7d (got "${values.ttl}")`);
    return 2;
  }
  const claims: Record<string, string> = {};
  for (const pair of values.claim) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      io.err(`scopegate token: --claim must be key=value (got "${pair}")`);
      return 2;
    }
    claims[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  let devKeysPath: string | null;
  let serviceId: string;
  let resolve: (p: string) => string;
  try {
    const loaded = loadConfig(values.config, { env: io.env });
    devKeysPath = loaded.config.auth.dev_keys;
    // The audience a gateway expects when it checks one and `auth.audience` names none.
    serviceId = loaded.config.service_id;
    resolve = (p) => loaded.resolvePath(p);
  } catch (err) {
    /* c8 ignore next - loadConfig throws only ConfigError */
    if (!(err instanceof ConfigError)) throw err;
    for (const problem of err.problems) io.err(`error: ${formatProblem(problem)}`);
    return 1;
  }
  if (devKeysPath === null) {
    io.err(
      `scopegate token: ${values.config} has no auth.dev_keys; development tokens need a development key`,
    );
    return 1;
  }
  let keys: Awaited<ReturnType<typeof loadOrCreateDevKeys>>;
  try {
    keys = await loadOrCreateDevKeys(resolve(devKeysPath));
  } catch (err) {
    io.err(`error: ${values.config} auth.dev_keys: ${(err as Error).message}`);
    return 1;
  }
  const scopes = values.scopes
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  io.out(
    await mintToken(
      { privateKey: keys.privateKey, kid: keys.kid },
      {
        sub: values.sub,
        scopes,
        ttlSeconds,
        audience: values.aud ?? serviceId,
        claims,
      },
      systemClock,
    ),
  );
  return 0;
};
