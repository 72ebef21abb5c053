/**
 * The container image, checked by reading: there is no Docker daemon to build it here. The
 * Dockerfile is multi-stage on node:22 slim (the LTS release `.ci/run` also runs the suite on),
 * runs as a non-root user, health-checks the admin /healthz with node, and serves the config at the documented path; .dockerignore lets
 * in only what it copies; and the image's default config loads, failing closed without a key.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import t from 'tap';
import { parseConfig } from '../../src/config/load.js';
import { runtimeSettingsSchema } from '../../src/runtime/catalogue/definitions.js';
import { RSA_KEY } from '../fixtures/keys.js';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** One Dockerfile instruction: its keyword (upper case) and the rest of the line. */
interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The instructions of a Dockerfile: comments dropped, `\` continuations joined. */
function parseDockerfile(text: string): Instruction[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  return logical.map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });
}

/** The instructions split into stages, each starting with its FROM. */
function stagesOf(instructions: readonly Instruction[]): Instruction[][] {
  const stages: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

const all = parseDockerfile(read('Dockerfile'));
const stages = stagesOf(all);
const [build = [], runtime = []] = [stages[0], stages.at(-1)];
const args = (stage: readonly Instruction[], keyword: string): string[] =>
  stage.filter((i) => i.keyword === keyword).map((i) => i.args);

const CONFIG_PATH = '/etc/scopegate/gateway.yaml';

/** The Node.js major version `.ci/run` runs the suite on besides the machine's own. */
const CI_LTS_MAJOR = /^LTS_NODE_VERSION=(\d+)\.\d+\.\d+$/m.exec(
  readFileSync(resolve(import.meta.dirname, '../../.ci/run'), 'utf8'),
)?.[1];

t.test(
  'multi-stage on node:22 slim: build with dev dependencies, run with production ones',
  async (t) => {
    t.ok(stages.length >= 2, `${stages.length} stages`);
    t.equal(all[0]?.keyword, 'FROM', 'the file starts with FROM');
    t.equal(CI_LTS_MAJOR, '22', "CI's second Node.js is the image's");
    for (const [i, stage] of stages.entries()) {
      t.match(
        stage[0]?.args,
        new RegExp(`^node:${CI_LTS_MAJOR}(\\.\\d+)*-slim(@sha256:[0-9a-f]+)?( AS \\w+)?$`, 'i'),
        `stage ${i}: node:${CI_LTS_MAJOR} slim`,
      );
    }
    t.match(build[0]?.args, / AS build$/i, 'the first stage is named build');
    const buildRuns = args(build, 'RUN').join('\n');
    t.match(buildRuns, /apt-get install .*python3/, 'python3 for node-gyp (better-sqlite3)');
    t.match(buildRuns, /\bmake\b/);
    t.match(buildRuns, /\bg\+\+/);
    t.match(buildRuns, /\bnpm ci\b/, 'the lock file decides');
    t.match(buildRuns, /\bnpm run build\b/);
    t.match(buildRuns, /npm prune --omit=dev|npm ci --omit=dev/, 'dev dependencies dropped');

    const copies = args(runtime, 'COPY');
    t.ok(
      copies.some((c) => /^--from=build \/app\/node_modules /.test(c)),
      'node_modules come from the build stage (pruned)',
    );
    t.ok(
      copies.some((c) => /^--from=build \/app\/dist /.test(c)),
      'the compiled dist',
    );
    t.notMatch(
      args(runtime, 'RUN').join('\n'),
      /npm (ci|install)|apt-get/,
      'no installs in the runtime',
    );
    t.same(args(runtime, 'WORKDIR'), ['/app']);
    t.ok(copies.includes('package.json ./'), 'package.json: how shipped files are found');
    t.ok(copies.includes('policies ./policies'), 'the shipped policies');
  },
);

t.test('a non-root user, a writable data dir, the ports, the config path', async (t) => {
  const users = args(runtime, 'USER');
  t.equal(users.length, 1, 'one USER');
  const [user = ''] = users;
  t.notMatch(user, /^(root|0)(:|$)/, 'not root');
  t.match(user, /^[1-9]\d*(:[1-9]\d*)?$/, 'numeric, so runAsNonRoot can verify it');
  const userAt = runtime.findIndex((i) => i.keyword === 'USER');
  const cmdAt = runtime.findIndex((i) => i.keyword === 'CMD');
  t.ok(userAt < cmdAt, 'USER comes before CMD');
  t.match(
    args(runtime, 'RUN').join('\n'),
    /mkdir -p \/var\/lib\/scopegate && chown 1000:1000 \/var\/lib\/scopegate/,
    'the data dir belongs to the user',
  );
  t.same(args(runtime, 'EXPOSE'), ['8080 9090']);
  t.ok(args(runtime, 'COPY').includes(`deploy/docker/gateway.yaml ${CONFIG_PATH}`));
  t.same(JSON.parse(args(runtime, 'CMD')[0] ?? ''), [
    'node',
    'dist/src/cli/main.js',
    'serve',
    '--config',
    CONFIG_PATH,
  ]);
  t.same(args(runtime, 'STOPSIGNAL'), ['SIGTERM'], 'SIGTERM drains (docs/deployment.md)');
});

t.test('HEALTHCHECK asks the admin /healthz with node (no curl in slim)', async (t) => {
  const [check = ''] = args(runtime, 'HEALTHCHECK');
  const match = /^(?:--\S+ )*CMD (\[.*\])$/.exec(check);
  t.ok(match, 'exec form');
  const command = JSON.parse(match?.[1] ?? '[]') as string[];
  t.equal(command[0], 'node');
  t.equal(command[1], '-e');
  const code = command[2] ?? '';
  t.match(code, /fetch\('http:\/\/127\.0\.0\.1:9090\/healthz'\)/);
  t.doesNotThrow(() => new Script(code), 'the inline script parses');
});

t.test('.dockerignore is an allow-list covering every COPY from the context', async (t) => {
  const rules = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  t.equal(rules[0], '*', 'everything is excluded first');
  const allowed = new Set(rules.filter((r) => r.startsWith('!')).map((r) => r.slice(1)));
  const sources = all
    .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from='))
    .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
  t.ok(sources.length >= 6);
  for (const source of sources) t.ok(allowed.has(source), `${source} is let in`);
});

t.test(
  "the image's default config loads; without a token source it refuses to start",
  async (t) => {
    const text = read('deploy/docker/gateway.yaml');
    const file = join(ROOT, 'deploy/docker/gateway.yaml');
    const { config } = parseConfig(text, file, {
      env: { JWT_VERIFICATION_KEY: RSA_KEY.publicPem },
    });
    t.same(config.listen, {
      host: '0.0.0.0',
      port: 8080,
      shutdown_grace_ms: 8000,
      trusted_proxies: [],
      body_idle_timeout_ms: 10000,
      body_timeout_ms: 60000,
      tls: { cert: null, key: null, client_ca: null, client_auth: 'none' },
    });
    t.ok(config.listen.shutdown_grace_ms < 10_000, "the drain fits docker stop's default 10 s");
    t.same(
      config.admin,
      { host: '0.0.0.0', port: 9090 },
      'reachable by probes; the HEALTHCHECK port',
    );
    t.equal(config.auth.authorization, true, 'RBAC on');
    t.equal(config.auth.dev_keys, null, 'no development keys unless asked for');
    t.equal(config.upstream.embedded, true);
    t.equal(config.policies, null, 'the shipped policies');
    t.match(
      config.auth.service_accounts.store,
      /^sqlite:\/var\/lib\/scopegate\//,
      'state in the data dir',
    );
    t.ok(runtimeSettingsSchema.safeParse(config.runtime).success, 'the runtime section is valid');
    t.match(config.runtime, { db: /^\/var\/lib\/scopegate\// });

    t.throws(
      () => parseConfig(text, file, { env: {} }),
      {
        code: 'SG_ERR_CONFIG_INVALID',
        problems: [{ key: 'auth.authorization', message: /needs a JWT source/ }],
      },
      'no key at all: fail closed',
    );

    const demo = parseConfig(text, file, {
      env: { SCOPEGATE_DEV_KEYS: '/var/lib/scopegate/dev-keys.json', SCOPEGATE_EMBEDDED: 'true' },
    });
    t.equal(demo.config.auth.dev_keys, '/var/lib/scopegate/dev-keys.json', 'the demo switch');

    const external = parseConfig(text, file, {
      env: {
        SCOPEGATE_JWKS_URL: 'https://idp.example/jwks',
        SCOPEGATE_EMBEDDED: 'false',
        SCOPEGATE_UPSTREAM_URL: 'http://agent-os:7777',
        SCOPEGATE_SHUTDOWN_GRACE_MS: '5000',
        SCOPEGATE_STORE_URL: 'sqlite:/var/lib/scopegate/shared.db',
      },
    });
    t.equal(external.config.auth.jwks_url, 'https://idp.example/jwks');
    t.same(external.config.upstream.url, 'http://agent-os:7777');
    t.equal(external.config.upstream.embedded, false);
    t.equal(external.config.listen.shutdown_grace_ms, 5000);
    t.equal(
      external.config.auth.service_accounts.store,
      'sqlite:/var/lib/scopegate/shared.db',
      'the store from the environment (a postgres:// URL for replicas)',
    );
  },
);
