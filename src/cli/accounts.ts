/**
 * `scopegate accounts create|list|revoke`: manage service accounts directly in the store a config
 * names, so the first token can be minted without any other credential.
 * Argv and printing only; the rules are the API's (gateway/service-accounts/).
 */
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { openServiceAccountStore } from '../auth/service-accounts/open-store.js';
import type { ServiceAccountRecord, ServiceAccountStore } from '../auth/service-accounts/store.js';
import { parseStoreLocation } from '../shared/store-location.js';
import type { LoadedConfig } from '../config/load.js';
import { describeRefusal } from '../gateway/rejections.js';
import {
  createServiceAccountsApi,
  mintServiceAccount,
  revokeServiceAccount,
  type ServiceAccountsApi,
} from '../gateway/service-accounts/accounts.js';
import { parseMintBody } from '../gateway/service-accounts/mint-body.js';
import { listedAccount, principalOfName } from '../gateway/service-accounts/render.js';
import { createScopeCatalogue } from '../policy/grantable.js';
import type { DecisionState } from '../gateway/pipeline.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { Command, CommandIo } from './io.js';
import { DEFAULT_CONFIG, loadAndAssemble } from './load.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** `scopegate accounts create`'s options. */
export const ACCOUNTS_CREATE = defineCommand({
  usage: 'accounts create --name N [options]',
  summary:
    'Create a service account in the store the config names and print its token (on stdout,\n' +
    'this once).',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    name: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in-days': { type: 'string' },
    'never-expires': { type: 'boolean', default: false },
    'allow-privileged-scopes': { type: 'boolean', default: false },
  },
  help: {
    config: CONFIG_HELP,
    name: { value: 'N', text: 'the account name (its principal is sa:<name>); required' },
    scopes: { value: 'a,b', text: 'the scopes it is granted' },
    'expires-in-days': { value: 'D', text: 'days until the token expires' },
    'never-expires': { text: 'a token that never expires (instead of --expires-in-days)' },
    'allow-privileged-scopes': { text: 'allow granting privileged scopes' },
  },
});

/** `scopegate accounts list`'s options. */
export const ACCOUNTS_LIST = defineCommand({
  usage: 'accounts list [options]',
  summary: 'List the service accounts, newest first.',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    json: { type: 'boolean', default: false },
  },
  help: { config: CONFIG_HELP, json: { text: 'print them as JSON' } },
});

/** `scopegate accounts revoke`'s options. */
export const ACCOUNTS_REVOKE = defineCommand({
  usage: 'accounts revoke [options] ID',
  summary: 'Revoke the service account with this id.',
  options: { config: { type: 'string', short: 'c', default: DEFAULT_CONFIG } },
  help: { config: CONFIG_HELP },
});

/** The help of `scopegate accounts`: each subcommand's. */
const USAGE = [ACCOUNTS_CREATE, ACCOUNTS_LIST, ACCOUNTS_REVOKE].map(usageOf).join('\n\n');

/** Who the CLI records as `created_by`: `cli:<OS user>`. */
function cliUser(): string {
  try {
    return `cli:${userInfo().username}`;
    /* c8 ignore next 3 - only for a process whose uid has no passwd entry */
  } catch {
    return 'cli';
  }
}

function isoOf(seconds: number | null): string {
  return seconds === null ? 'never' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** `active`, `revoked` or `expired` at `now` (epoch seconds). */
export function statusOf(record: ServiceAccountRecord, now: number): string {
  if (record.revoked_at !== null) return 'revoked';
  return record.expires_at !== null && record.expires_at <= now ? 'expired' : 'active';
}

/** Every stored account, newest first, read a page at a time. */
async function allAccounts(store: ServiceAccountStore): Promise<ServiceAccountRecord[]> {
  const out: ServiceAccountRecord[] = [];
  for (;;) {
    const { rows, total } = await store.list(out.length, 100);
    out.push(...rows);
    if (rows.length === 0 || out.length >= total) return out;
  }
}

/** What a subcommand does once the store is open. */
type Run = (api: ServiceAccountsApi, io: CommandIo, context: RunContext) => Promise<number>;

interface RunContext {
  readonly clock: Clock;
  /** How soon running gateways refuse a revoked token: the change feed's staleness bound, ms. */
  readonly maxStalenessMs: number;
}

/** A parsed subcommand: its config file and what it runs; or an exit code for bad arguments. */
type Plan = { readonly config: string; readonly run: Run } | number;

function planCreate(args: readonly string[], io: CommandIo): Plan {
  if (helpRequested(args)) {
    io.out(usageOf(ACCOUNTS_CREATE));
    return 0;
  }
  const { values } = parseArgs({ args: [...args], options: ACCOUNTS_CREATE.options, strict: true });
  const days = values['expires-in-days'];
  const parsed = parseMintBody({
    name: values.name,
    scopes: values.scopes
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((scope) => ({ scope })),
    // Integer text becomes a number; anything else stays text and is refused as not an integer.
    expires_in_days: days !== undefined && /^-?\d+$/.test(days) ? Number(days) : days,
    never_expires: values['never-expires'],
    allow_privileged_scopes: values['allow-privileged-scopes'],
  });
  if (!parsed.ok) {
    for (const issue of parsed.issues) io.err(`error: ${issue.msg}`);
    io.err(usageOf(ACCOUNTS_CREATE));
    return 2;
  }
  const request = parsed.value;
  return {
    config: values.config,
    async run(api, io) {
      const minted = await mintServiceAccount(api, request, {
        grants: null,
        createdBy: cliUser(),
      });
      if (!minted.ok) {
        const hint =
          minted.code === 'SG_ERR_SA_SCOPE_PRIVILEGED' ? ' (pass --allow-privileged-scopes)' : '';
        io.err(`error: ${describeRefusal(minted).detail}${hint}`);
        return 1;
      }
      const account = minted.value;
      io.err(
        `created service account ${account.name} (id ${account.id}), principal ${account.principal}`,
      );
      io.err(`scopes: ${account.scopes.map((s) => s.raw).join(' ') || '(none)'}`);
      io.err(`expires: ${isoOf(account.expires_at)}`);
      io.err('the token (on stdout) is shown this once: store it now');
      io.out(account.token);
      return 0;
    },
  };
}

function planList(args: readonly string[], io: CommandIo): Plan {
  if (helpRequested(args)) {
    io.out(usageOf(ACCOUNTS_LIST));
    return 0;
  }
  const { values } = parseArgs({ args: [...args], options: ACCOUNTS_LIST.options, strict: true });
  return {
    config: values.config,
    async run(api, io, { clock }) {
      const accounts = await allAccounts(api.store);
      if (values.json) {
        io.out(JSON.stringify(accounts.map(listedAccount), null, 2));
        return 0;
      }
      if (accounts.length === 0) {
        io.out(`no service accounts in ${api.store.location}`);
        return 0;
      }
      const now = Math.floor(clock.now() / 1000);
      const rows = [
        ['ID', 'PRINCIPAL', 'STATUS', 'EXPIRES', 'LAST USED', 'SCOPES'],
        ...accounts.map((a) => [
          a.id,
          principalOfName(a.name),
          statusOf(a, now),
          isoOf(a.expires_at),
          a.last_used_at === null ? '-' : isoOf(a.last_used_at),
          a.scopes.join(' '),
        ]),
      ];
      const widths = (rows[0] as string[]).map((_, i) =>
        Math.max(...rows.map((r) => (r[i] as string).length)),
      );
      for (const row of rows) {
        io.out(
          row
            .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] as number)))
            .join('  ')
            .trimEnd(),
        );
      }
      return 0;
    },
  };
}

function planRevoke(args: readonly string[], io: CommandIo): Plan {
  if (helpRequested(args)) {
    io.out(usageOf(ACCOUNTS_REVOKE));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: [...args],
    options: ACCOUNTS_REVOKE.options,
    strict: true,
    allowPositionals: true,
  });
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0) {
    io.err(usageOf(ACCOUNTS_REVOKE));
    return 2;
  }
  return {
    config: values.config,
    async run(api, io, { maxStalenessMs }) {
      const outcome = await revokeServiceAccount(api, id);
      if (outcome === 'not_found') {
        io.err(`error: no service account has the id ${JSON.stringify(id)}`);
        return 1;
      }
      io.out(
        outcome === 'revoked'
          ? `revoked ${id}; running gateways stop accepting its token within ${maxStalenessMs} ms`
          : `${id} was already revoked`,
      );
      return 0;
    },
  };
}

/** Opens the store a loaded config names, or prints why it cannot. */
async function openStoreOf(
  loaded: LoadedConfig,
  io: CommandIo,
): Promise<ServiceAccountStore | null> {
  const settings = loaded.config.auth.service_accounts;
  if (!settings.enabled) {
    io.err(
      `error: ${loaded.file} auth.service_accounts.enabled is false: the gateway accepts no service-account tokens`,
    );
    return null;
  }
  try {
    const { cluster } = loaded.config;
    return await openServiceAccountStore({
      location: parseStoreLocation(settings.store, (p) => loaded.resolvePath(p)),
      replicaId: `${cluster.replica_id ?? hostname()}-cli-${process.pid}`,
      poolMax: 1,
      // A command may wait for another process's lock: nothing else runs on its event loop.
      mode: 'cli',
    });
  } catch (err) {
    io.err(`error: ${loaded.file} auth.service_accounts.store: ${(err as Error).message}`);
    return null;
  }
}

/** Builds the command over an injectable clock (tests pass their own). */
export function createAccountsCommand(clock: Clock): Command {
  return async (args, io) => {
    const [sub, ...rest] = args;
    let plan: Plan;
    if (sub === 'create') plan = planCreate(rest, io);
    else if (sub === 'list') plan = planList(rest, io);
    else if (sub === 'revoke') plan = planRevoke(rest, io);
    else if (sub === '--help' || sub === '-h') {
      io.out(USAGE);
      return 0;
    } else {
      io.err(
        sub === undefined ? USAGE : `scopegate accounts: unknown subcommand "${sub}"\n${USAGE}`,
      );
      return 2;
    }
    if (typeof plan === 'number') return plan;
    const ready = loadAndAssemble(plan.config, io);
    if (ready === null) return 1;
    const store = await openStoreOf(ready.loaded, io);
    if (store === null) return 1;
    const api = createServiceAccountsApi({
      store,
      verifier: null,
      clock,
      // loadAndAssemble answers only with a state.
      catalogue: createScopeCatalogue((ready.assembled.state as DecisionState).policy),
    });
    let code: number;
    try {
      code = await plan.run(api, io, {
        clock,
        maxStalenessMs: ready.loaded.config.cluster.max_staleness_ms,
      });
    } catch (err) {
      // The store wraps every failure in its own error, whose message names the file.
      io.err(`error: ${(err as Error).message}`);
      code = 1;
    }
    await store.close();
    return code;
  };
}

/** `scopegate accounts …` on the system clock. */
export const accounts: Command = createAccountsCommand(systemClock);
