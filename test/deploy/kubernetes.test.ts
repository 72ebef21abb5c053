/**
 * The Kubernetes example, parsed with `yaml`: three pods, each a gateway in front of a runtime
 * that listens on loopback; config from a ConfigMap, secrets (the URLs of the shared
 * service-account store and runtime database among them) from a Secret through `${NAME}`
 * interpolation; probes and Prometheus annotations on the admin port; a termination grace period
 * above the drain bound; no volume for any state and no client affinity; Secrets kept out of the
 * kustomizations; and an example PostgreSQL sized for the pods' connections. The configs it
 * carries load.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import { parsePolicyText } from '../../src/policy/loader.js';
import { runtimeSettingsSchema } from '../../src/runtime/catalogue/definitions.js';
import { RUNTIME_POSTGRES_POOL } from '../../src/runtime/store/store.js';
import { RSA_KEY } from '../fixtures/keys.js';

const DIR = resolve(import.meta.dirname, '../../deploy/kubernetes');
const PG_DIR = join(DIR, 'postgres');

// Manifests are untyped YAML: read as plain records.
type Manifest = Record<string, any>;
interface Loaded {
  readonly file: string;
  readonly doc: Manifest;
}

function manifestsIn(dir: string): Loaded[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => {
        if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`);
        return { file, doc: d.toJS() as Manifest };
      }),
    );
}

function byKind(manifests: readonly Loaded[], kind: string): Manifest {
  const found = manifests.filter((m) => m.doc.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return (found[0] as Loaded).doc;
}

const manifests = manifestsIn(DIR);
const pgManifests = manifestsIn(PG_DIR);
const deployment = byKind(manifests, 'Deployment');
const configMap = byKind(manifests, 'ConfigMap');
const secret = byKind(manifests, 'Secret');
const service = byKind(manifests, 'Service');
const pod = deployment.spec.template.spec as Manifest;
const containers = pod.containers as Manifest[];
const gateway = containers.find((c) => c.name === 'gateway') as Manifest;
const runtime = containers.find((c) => c.name === 'runtime') as Manifest;
/** The ConfigMap's gateway.yaml as written (no interpolation, no validation). */
const rawGateway = parse(configMap.data['gateway.yaml'] as string) as Manifest;

/** The Secret's value behind each of the gateway's environment variables. */
function gatewayEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of gateway.env as Manifest[]) {
    const ref = entry.valueFrom.secretKeyRef as { key: string };
    env[entry.name as string] = secret.stringData[ref.key] as string;
  }
  // The example's PEM is a placeholder: a real key stands in for it here.
  env['SCOPEGATE_JWT_PUBLIC_KEY'] = RSA_KEY.publicPem;
  return env;
}

const portOf = (container: Manifest, name: string): number =>
  (container.ports as Manifest[]).find((p) => p.name === name)?.containerPort as number;
const sleepOf = (container: Manifest): number =>
  Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
const mounts = (c: Manifest): Manifest[] => c.volumeMounts as Manifest[];

t.test('every manifest parses; the kustomizations list all but the Secrets', async (t) => {
  const rows = [
    {
      name: 'the gateways',
      dir: DIR,
      loaded: manifests,
      kinds: ['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Secret', 'Service'],
    },
    {
      name: 'the example database',
      dir: PG_DIR,
      loaded: pgManifests,
      kinds: ['Secret', 'Service', 'StatefulSet'],
    },
  ];
  for (const row of rows) {
    const files = readdirSync(row.dir).filter((f) => f.endsWith('.yaml'));
    t.same(
      [...new Set(row.loaded.map((m) => m.doc.kind))].filter((k) => k !== 'Kustomization').sort(),
      row.kinds,
      `${row.name}: the kinds`,
    );
    const listed = byKind(row.loaded, 'Kustomization').resources as string[];
    const secrets = row.loaded.filter((m) => m.doc.kind === 'Secret').map((m) => m.file);
    t.same(secrets, ['secret.example.yaml'], `${row.name}: the Secret is an example file`);
    t.same(
      [...listed].sort(),
      files.filter((f) => f !== 'kustomization.yaml' && !secrets.includes(f)).sort(),
      `${row.name}: every other file is listed, so apply -k never overwrites a real Secret`,
    );
  }
});

/**
 * Why the kustomize check is skipped, or false when kubectl is on the PATH or the run is CI's
 * (`.ci/run` installs kubectl, so there a missing one fails the check instead of skipping it).
 */
function kubectlMissing(): string | false {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return false;
  } catch {
    return process.env['CI'] === 'true'
      ? false
      : "kubectl is not installed (Debian's kubernetes-client package)";
  }
}

t.test(
  'kubectl kustomize builds both folders, without a Secret',
  { skip: kubectlMissing() },
  async (t) => {
    const rows = [
      {
        name: 'the gateways',
        dir: DIR,
        kinds: ['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Service'],
      },
      { name: 'the example database', dir: PG_DIR, kinds: ['Service', 'StatefulSet'] },
    ];
    for (const row of rows) {
      const built = execFileSync('kubectl', ['kustomize', row.dir], { encoding: 'utf8' });
      const kinds = parseAllDocuments(built).map((d) => (d.toJS() as Manifest).kind as string);
      t.same(kinds.sort(), row.kinds, row.name);
    }
  },
);

t.test('a pod of two containers: the gateway in front of a loopback-only runtime', async (t) => {
  t.equal(containers.length, 2);
  t.ok(gateway && runtime, 'named gateway and runtime');
  t.equal(rawGateway.upstream.embedded, false, 'the gateway does not start its own runtime');
  t.equal(rawGateway.upstream.url, 'http://127.0.0.1:8081');
  const args = runtime.command as string[];
  t.same(args.slice(0, 3), ['node', 'dist/src/cli/main.js', 'runtime']);
  t.equal(args[args.indexOf('--host') + 1], '127.0.0.1', 'the runtime listens on loopback only');
  t.equal(args[args.indexOf('--port') + 1], '8081', 'where upstream.url points');
  t.equal(
    args[args.indexOf('--gateway-url') + 1],
    `http://127.0.0.1:${rawGateway.listen.port}`,
    "schedules run through the pod's own gateway",
  );
  t.equal(rawGateway.auth.internal_service_token, '${SCOPEGATE_INTERNAL_TOKEN}');
  t.notOk(runtime.ports, 'the runtime declares no port');
  t.equal(gateway.image, runtime.image, 'the bundled runtime from the same image');
  t.notOk(gateway.command ?? gateway.args, "the gateway runs the image's CMD (serve)");
  t.same(service.spec.ports, [{ name: 'http', port: 80, targetPort: 'http' }]);
  t.equal(portOf(gateway, 'http'), rawGateway.listen.port);
});

t.test('probes and Prometheus scraping on the admin port', async (t) => {
  t.equal(rawGateway.admin.host, '0.0.0.0', 'reachable by the kubelet and Prometheus');
  t.equal(portOf(gateway, 'admin'), rawGateway.admin.port);
  t.same(gateway.livenessProbe.httpGet, { path: '/healthz', port: 'admin' });
  t.same(gateway.readinessProbe.httpGet, { path: '/readyz', port: 'admin' });
  t.same(deployment.spec.template.metadata.annotations, {
    'prometheus.io/scrape': 'true',
    'prometheus.io/port': String(rawGateway.admin.port),
    'prometheus.io/path': '/metrics',
  });
  t.match(
    runtime.readinessProbe.exec.command.join(' '),
    /^node -e fetch\('http:\/\/127\.0\.0\.1:8081\/health'\)/,
    "the runtime's probe runs inside its container (it listens on loopback)",
  );
});

t.test('config from the ConfigMap, secrets from the Secret through ${NAME}', async (t) => {
  const volumes = pod.volumes as Manifest[];
  const configVolume = volumes.find((v) => v.configMap?.name === configMap.metadata.name);
  t.ok(configVolume, 'the ConfigMap is a volume');
  for (const c of containers) {
    t.match(
      mounts(c),
      [{ name: configVolume?.name, mountPath: '/etc/scopegate', readOnly: true }],
      `${c.name}: mounted read-only at /etc/scopegate`,
    );
  }
  // Every ${NAME} the gateway config needs (without a default) is set from the Secret.
  const needed = [...(configMap.data['gateway.yaml'] as string).matchAll(/\$\{(\w+)\}/g)].map(
    (m) => m[1],
  );
  t.same(
    [...new Set(needed)].sort(),
    (gateway.env as Manifest[]).map((e) => e.name).sort(),
    'exactly the variables the config interpolates',
  );
  for (const entry of gateway.env as Manifest[]) {
    const ref = entry.valueFrom.secretKeyRef;
    t.equal(ref.name, secret.metadata.name, `${entry.name}: from the Secret`);
    t.ok(ref.key in secret.stringData, `${entry.name}: the Secret has ${ref.key}`);
  }
  t.equal(
    rawGateway.auth.service_accounts.store,
    '${SCOPEGATE_STORE_URL}',
    'the store URL, password included, comes only from the Secret',
  );
  t.match(gatewayEnv()['SCOPEGATE_STORE_URL'], /^postgres:\/\//, 'a PostgreSQL store');
  // The runtime gets the identity secret and the internal token from the same Secret keys as the
  // gateway's, and its database URL; nothing else.
  const byName = (a: Manifest, b: Manifest) => String(a.name).localeCompare(String(b.name));
  const runtimeDbEnv = {
    name: 'SCOPEGATE_RUNTIME_DB_URL',
    valueFrom: { secretKeyRef: { name: secret.metadata.name, key: 'runtime-db-url' } },
  };
  t.same(
    [...(runtime.env as Manifest[])].sort(byName),
    [
      ...(gateway.env as Manifest[]).filter(
        (e) => e.name === 'SCOPEGATE_IDENTITY_SECRET' || e.name === 'SCOPEGATE_INTERNAL_TOKEN',
      ),
      runtimeDbEnv,
    ].sort(byName),
    'the runtime verifies with the key the gateway signs with, schedules with its internal ' +
      'token, opens the shared database, and gets nothing else',
  );

  const local = (rawGateway.policies as string[]).at(-1) as string;
  t.match(rawGateway.policies, ['/app/policies/defaults.yaml'], 'the shipped policies first');
  t.equal(
    parsePolicyText(configMap.data[local], local).problems.length,
    0,
    `${local} (from the ConfigMap) is a valid policy file`,
  );

  const runtimeUrl = secret.stringData['runtime-db-url'] as string;
  const runtimeConfig = parseConfig(configMap.data['runtime.yaml'], '/etc/scopegate/runtime.yaml', {
    env: { SCOPEGATE_RUNTIME_DB_URL: runtimeUrl },
  });
  const runtimeSettings = runtimeSettingsSchema.safeParse(runtimeConfig.config.runtime);
  t.ok(runtimeSettings.success, 'runtime.yaml');
  t.equal(runtimeSettings.data?.db, runtimeUrl, "the runtime's database from the Secret");
  t.match(runtimeUrl, /^postgres:\/\//, 'a PostgreSQL database the runtimes share');
  t.equal(runtime.command[runtime.command.indexOf('--config') + 1], '/etc/scopegate/runtime.yaml');
});

t.test("the ConfigMap's gateway.yaml loads with the Secret's values", async (t) => {
  const env = gatewayEnv();
  const { config } = parseConfig(configMap.data['gateway.yaml'], '/etc/scopegate/gateway.yaml', {
    env,
  });
  t.equal(config.auth.authorization, true);
  t.equal(config.auth.verification_keys[0], RSA_KEY.publicPem, 'the key from the environment');
  t.equal(config.upstream.identity_secret, secret.stringData['identity-secret']);
  t.equal(config.auth.internal_service_token, secret.stringData['internal-service-token']);
  t.equal(config.auth.service_accounts.store, env['SCOPEGATE_STORE_URL'], 'the shared store');
  t.equal(config.listen.shutdown_grace_ms, rawGateway.listen.shutdown_grace_ms);
  // Typed loosely: the cluster section is newer than some schemas this test was written beside.
  t.match((config as unknown as Manifest)['cluster'], {
    max_staleness_ms: 1000,
    feed_poll_ms: 500,
    pool_max: 5,
  });
});

t.test('shutdown: the grace period covers the pause and the drain bound', async (t) => {
  const boundS = (rawGateway.listen.shutdown_grace_ms as number) / 1000;
  const pause = sleepOf(gateway);
  t.ok(pause > 0, 'the gateway pauses before draining (endpoints update)');
  t.ok(
    pod.terminationGracePeriodSeconds > pause + boundS,
    `terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} > ${pause} + ${boundS}`,
  );
  t.ok(
    sleepOf(runtime) >= pause + boundS,
    'the runtime keeps serving until the gateway has drained',
  );
  t.ok(pod.terminationGracePeriodSeconds > sleepOf(runtime), 'and then has time to close');
});

t.test('replicas: rolling updates, no state in a pod, any pod serves any client', async (t) => {
  t.equal(deployment.spec.replicas, 3);
  t.same(deployment.spec.strategy, {
    type: 'RollingUpdate',
    rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
  });
  t.notOk(
    manifests.some((m) => m.doc.kind === 'PersistentVolumeClaim'),
    'no claim: a ReadWriteOnce volume would pin every replica to one node',
  );
  const volumes = pod.volumes as Manifest[];
  t.notOk(
    volumes.some((v) => v.persistentVolumeClaim),
    'no volume outlives a pod',
  );
  t.same(
    mounts(gateway)
      .filter((m) => m.readOnly !== true)
      .map((m) => m.mountPath),
    ['/tmp'],
    'the gateway writes nothing but /tmp: its state is in the database',
  );
  t.same(
    mounts(runtime)
      .filter((m) => m.readOnly !== true)
      .map((m) => m.mountPath),
    ['/tmp'],
    'the runtime writes nothing but /tmp: its data is in the shared database',
  );
  t.notOk(service.spec.sessionAffinity, 'no affinity: any pod serves any client');
  const pdb = byKind(manifests, 'PodDisruptionBudget');
  t.same(pdb.spec.selector, deployment.spec.selector, 'the budget covers the gateway pods');
  t.ok(pdb.spec.maxUnavailable < deployment.spec.replicas, 'a drain leaves some serving');
});

t.test('the example database: its Secret, address and size fit the gateways', async (t) => {
  const statefulSet = byKind(pgManifests, 'StatefulSet');
  const pgService = byKind(pgManifests, 'Service');
  const pgSecret = byKind(pgManifests, 'Secret');
  const [postgres] = statefulSet.spec.template.spec.containers as Manifest[];
  const envOf = (name: string): Manifest | undefined =>
    (postgres?.env as Manifest[]).find((e) => e.name === name);
  t.match(
    readFileSync(join(PG_DIR, 'statefulset.yaml'), 'utf8'),
    /^# EXAMPLE, use your managed PostgreSQL in production/,
    'marked as an example',
  );
  t.equal(statefulSet.spec.replicas, 1);
  t.equal(statefulSet.spec.serviceName, pgService.metadata.name);
  t.same(envOf('POSTGRES_PASSWORD')?.valueFrom.secretKeyRef, {
    name: pgSecret.metadata.name,
    key: 'password',
  });
  t.ok('password' in pgSecret.stringData, 'its Secret has the password');

  // The gateways' example store-url points at this database, as its role.
  const url = new URL(secret.stringData['store-url'] as string);
  t.equal(url.hostname, pgService.metadata.name, 'the host is the Service');
  t.equal(Number(url.port), pgService.spec.ports[0].port);
  t.equal(pgService.spec.ports[0].targetPort, 'postgres');
  t.equal(portOf(postgres as Manifest, 'postgres'), 5432);
  t.equal(url.username, envOf('POSTGRES_USER')?.value, 'the role');
  t.equal(url.pathname, `/${envOf('POSTGRES_DB')?.value}`, 'the database');

  // The runtimes' example database is this one too.
  t.equal(secret.stringData['runtime-db-url'], secret.stringData['store-url'], 'one database');

  // Connections: pods x (the gateway's pool_max + 1 LISTEN + the runtime's pool), one more pod
  // during a rolling update.
  const args = postgres?.args as string[];
  const maxConnections = Number(
    /^max_connections=(\d+)$/.exec(args[args.indexOf('-c') + 1] ?? '')?.[1],
  );
  const pods = deployment.spec.replicas + deployment.spec.strategy.rollingUpdate.maxSurge;
  const needed = pods * ((rawGateway.cluster.pool_max as number) + 1 + RUNTIME_POSTGRES_POOL);
  t.ok(
    needed < maxConnections - 3,
    `${needed} gateway and runtime connections fit max_connections ${maxConnections}`,
  );
});

t.test('non-root, read-only root file system', async (t) => {
  const rows = [
    { name: 'gateway pod', spec: pod, uid: 1000 },
    { name: 'database pod', spec: byKind(pgManifests, 'StatefulSet').spec.template.spec, uid: 999 },
  ];
  for (const row of rows) {
    t.match(
      row.spec.securityContext,
      { runAsNonRoot: true, runAsUser: row.uid, fsGroup: row.uid },
      row.name,
    );
    for (const c of row.spec.containers as Manifest[]) {
      t.match(
        c.securityContext,
        {
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        },
        `${row.name}: ${c.name}`,
      );
    }
  }
});
