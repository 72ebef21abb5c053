/**
 * Proxy benchmark, one process tree: the same upstream reached directly, through a plain Node
 * keep-alive proxy (no auth), and through scopegate with RS256 JWTs (one token; 10,000
 * distinct tokens on first use and cached) and with a service-account token (verified once, then
 * cached). Prints requests/s and CPU time per request of each proxy process, and the
 * gateway/plain ratios. Measures; never asserts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { Pool } from 'undici';
import { openSqliteStore } from '../src/auth/service-accounts/sqlite-store.js';
import {
  hashServiceAccountToken,
  mintServiceAccountToken,
  tokenPrefixOf,
} from '../src/auth/service-accounts/token.js';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const PATH = '/agents/a1';
const CONNECTIONS = 32;

interface Child {
  readonly process: ChildProcess;
  readonly port: number;
  cpu(): Promise<number>;
  start(): void;
}

function startChild(args: string[]): Promise<Child> {
  // BENCH_PROFILE=<dir> writes a V8 CPU profile of the gateway process there, for analysis.
  const profile =
    process.env.BENCH_PROFILE && args[0] === 'gateway'
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : [];
  const child = fork(CHILD, args, {
    execArgv: [...process.execArgv, ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench child ${args[0]} exited ${code}`)));
    child.once('message', (m: { type: string; port: number }) => {
      resolve({
        process: child,
        port: m.port,
        start: () => child.send({ type: 'start' }),
        cpu: () =>
          new Promise((r) => {
            child.once('message', (reply: { micros: number }) => r(reply.micros));
            child.send({ type: 'stop' });
          }),
      });
    });
  });
}

/** Sends `total` GET requests over `CONNECTIONS` keep-alive connections; returns requests/s. */
async function load(
  port: number,
  total: number,
  tokenFor: (i: number) => string | null,
): Promise<number> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: 1 });
  let next = 0;
  let failures = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const token = tokenFor(i);
      const { statusCode, body } = await pool.request({
        path: PATH,
        method: 'GET',
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
      });
      await body.dump();
      if (statusCode !== 200) failures++;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.close();
  if (failures > 0) throw new Error(`${failures} of ${total} benchmark requests failed`);
  return total / seconds;
}

interface Row {
  readonly name: string;
  readonly rps: number;
  /** CPU microseconds per request of the measured proxy process (null: no proxy). */
  readonly cpuPerRequest: number | null;
}

async function measure(
  name: string,
  target: Child,
  cpuOf: Child | null,
  total: number,
  tokenFor: (i: number) => string | null,
): Promise<Row> {
  await load(target.port, Math.min(total, 5_000), tokenFor); // warm-up: JIT, connections
  cpuOf?.start();
  const rps = await load(target.port, total, tokenFor);
  const micros = cpuOf === null ? null : await cpuOf.cpu();
  return { name, rps, cpuPerRequest: micros === null ? null : micros / total };
}

/** How many interleaved rounds each proxied scenario runs. */
const ROUNDS = 3;

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function mint(privateKey: KeyObject, count: number): Promise<string[]> {
  const tokens: string[] = [];
  const exp = Math.floor(Date.now() / 1000) + 3600;
  for (let i = 0; i < count; i++) {
    tokens.push(
      await new SignJWT({ scopes: ['agents:read'] })
        .setProtectedHeader({ alg: 'RS256' })
        .setSubject(`user-${i}`)
        .setExpirationTime(exp)
        .sign(privateKey),
    );
  }
  return tokens;
}

/** Stores one service account (scope agents:read) in a fresh store at `path`; its token. */
async function mintServiceAccount(path: string): Promise<string> {
  const store = await openSqliteStore(path);
  const token = mintServiceAccountToken();
  const now = Math.floor(Date.now() / 1000);
  await store.insert(
    {
      id: 'bench',
      name: 'bench',
      token_hash: hashServiceAccountToken(token),
      token_prefix: tokenPrefixOf(token),
      scopes: ['agents:read'],
      created_at: now,
      expires_at: now + 86_400,
      last_used_at: null,
      revoked_at: null,
      created_by: 'bench',
    },
    now,
  );
  await store.close();
  return token;
}

/** Runs the proxy benchmark and prints its table. */
export async function runProxyBench(out: (line: string) => void, requests = 30_000): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scopegate-bench-'));
  const children: Child[] = [];
  try {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'rs256.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    out('proxy benchmark: minting 10,000 RS256 tokens …');
    const tokens = await mint(privateKey, 10_000);
    const one = tokens[0] as string;
    const serviceAccountToken = await mintServiceAccount(join(dir, 'sa.db'));

    const upstream = await startChild(['upstream']);
    children.push(upstream);
    const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
    const plain = await startChild(['plain', upstreamUrl]);
    children.push(plain);
    const configText = [
      'listen: { host: 127.0.0.1, port: 0 }',
      `upstream: { url: "${upstreamUrl}", timeout_ms: 30000 }`,
      'auth:',
      '  authorization: true',
      '  algorithm: RS256',
      '  verification_keys: ["file:rs256.pem"]',
      // Cache hot: one verification, then every request a cache hit (last_used_at once a minute).
      '  service_accounts: { enabled: true, store: "sqlite:sa.db", cache_ttl_seconds: 3600 }',
      '',
    ].join('\n');
    const gateway = await startChild(['gateway', join(dir, 'gateway.yaml'), configText]);
    children.push(gateway);

    // The box is shared and noisy: the proxied scenarios run in interleaved rounds (each round
    // measures plain, then each gateway scenario, back to back) and each row reports its median,
    // so a burst of load elsewhere lands on one round of every scenario, not on one scenario.
    const scenarios: readonly [string, Child, (i: number) => string | null][] = [
      ['plain Node keep-alive proxy', plain, () => null],
      ['scopegate, 1 RS256 token (cached)', gateway, () => one],
      ['scopegate, 10,000 tokens (cached)', gateway, (i) => tokens[i % tokens.length] as string],
      ['scopegate, 1 service-account token (cached)', gateway, () => serviceAccountToken],
    ];
    const direct = await measure('upstream, direct', upstream, null, requests, () => null);
    // First use of each of 10,000 tokens: every request verifies an RS256 signature (once only).
    gateway.start();
    const coldRps = await load(gateway.port, tokens.length, (i) => tokens[i] as string);
    const coldMicros = await gateway.cpu();
    const rounds: Row[][] = scenarios.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, [name, target, tokenFor]] of scenarios.entries()) {
        rounds[index]?.push(await measure(name, target, target, requests, tokenFor));
      }
    }
    const medianRows = rounds.map((measured) => ({
      name: measured[0]?.name as string,
      rps: median(measured.map((row) => row.rps)),
      cpuPerRequest: median(measured.map((row) => row.cpuPerRequest as number)),
    }));
    const rows: Row[] = [
      direct,
      medianRows[0] as Row,
      medianRows[1] as Row,
      {
        name: 'scopegate, 10,000 tokens, first use',
        rps: coldRps,
        cpuPerRequest: coldMicros / tokens.length,
      },
      medianRows[2] as Row,
      medianRows[3] as Row,
    ];

    const plainCpu = rows[1]?.cpuPerRequest as number;
    out(
      `proxy benchmark (GET ${PATH}, ${CONNECTIONS} keep-alive connections, ${requests.toLocaleString('en-US')} requests a row; ` +
        `proxied rows: median of ${ROUNDS} interleaved rounds)`,
    );
    out('  scenario                                     requests/s   CPU µs/req   CPU vs plain');
    for (const row of rows) {
      const cpu =
        row.cpuPerRequest === null ? '           —' : row.cpuPerRequest.toFixed(1).padStart(12);
      const ratio =
        row.cpuPerRequest === null || row === rows[1]
          ? ''
          : `${(row.cpuPerRequest / plainCpu).toFixed(2)}×`;
      out(
        `  ${row.name.padEnd(44)} ${Math.round(row.rps).toLocaleString('en-US').padStart(10)} ${cpu}   ${ratio}`,
      );
    }
    const cached = (rows[2]?.cpuPerRequest as number) / plainCpu;
    out(
      `  target: gateway CPU/request with a cached token ≤ 1.3× plain: ${cached.toFixed(2)}× ${cached <= 1.3 ? 'met' : 'MISSED'}`,
    );
    const account = (rows[5]?.cpuPerRequest as number) / plainCpu;
    out(
      `  target: gateway CPU/request with a cached service-account token ≤ 1.3× plain: ${account.toFixed(2)}× ${account <= 1.3 ? 'met' : 'MISSED'}`,
    );
  } finally {
    for (const child of children) child.process.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  }
}
