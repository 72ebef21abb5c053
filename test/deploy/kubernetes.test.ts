/**
 * The Kubernetes example (issue #6 item 8), parsed with `yaml`: the gateway as a sidecar in front
 * of a runtime that listens on loopback, config from a ConfigMap, secrets from a Secret through
 * `${NAME}` interpolation, probes and Prometheus annotations on the admin port, and a
 * termination grace period above the drain bound. The configs it carries load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import { parsePolicyText } from '../../src/policy/loader.js';
import { runtimeSettingsSchema } from '../../src/runtime/definitions.js';
import { RSA_KEY } from '../fixtures/keys.js';

const DIR = resolve(import.meta.dirname, '../../deploy/kubernetes');

// Manifests are untyped YAML: read as plain records.
type Manifest = Record<string, any>;

const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));
const manifests: { file: string; doc: Manifest }[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`);
    return { file, doc: d.toJS() as Manifest };
  }),
);
const byKind = (kind: string): Manifest => {
  const found = manifests.filter((m) => m.doc.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return (found[0] as { doc: Manifest }).doc;
};

const deployment = byKind('Deployment');
const configMap = byKind('ConfigMap');
const secret = byKind('Secret');
const service = byKind('Service');
const pod = deployment.spec.template.spec as Manifest;
const containers = pod.containers as Manifest[];
const gateway = containers.find((c) => c.name === 'gateway') as Manifest;
const runtime = containers.find((c) => c.name === 'runtime') as Manifest;

/** The gateway.yaml of the ConfigMap, loaded with the Secret's values in the environment. */
function gatewayConfig() {
  const env: Record<string, string> = {};
  for (const entry of gateway.env as Manifest[]) {
    const ref = entry.valueFrom.secretKeyRef as { key: string };
    env[entry.name as string] = secret.stringData[ref.key] as string;
  }
  // The example's PEM is a placeholder: a real key stands in for it here.
  env['SCOPEGATE_JWT_PUBLIC_KEY'] = RSA_KEY.publicPem;
  return parseConfig(configMap.data['gateway.yaml'], '/etc/scopegate/gateway.yaml', { env });
}

const portOf = (container: Manifest, name: string): number =>
  (container.ports as Manifest[]).find((p) => p.name === name)?.containerPort as number;
const sleepOf = (container: Manifest): number =>
  Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);

t.test('every manifest parses; kustomization lists them all', async (t) => {
  t.same([...new Set(manifests.map((m) => m.doc.kind))].sort(), [
    'ConfigMap',
    'Deployment',
    'Kustomization',
    'PersistentVolumeClaim',
    'Secret',
    'Service',
  ]);
  const listed = byKind('Kustomization').resources as string[];
  t.same([...listed].sort(), files.filter((f) => f !== 'kustomization.yaml').sort());
});

t.test('a pod of two containers: the gateway in front of a loopback-only runtime', async (t) => {
  t.equal(containers.length, 2);
  t.ok(gateway && runtime, 'named gateway and runtime');
  const { config } = gatewayConfig();
  t.equal(config.upstream.embedded, false, 'the gateway does not start its own runtime');
  t.equal(config.upstream.url, 'http://127.0.0.1:8081');
  const args = runtime.command as string[];
  t.same(args.slice(0, 3), ['node', 'dist/src/cli/main.js', 'runtime']);
  t.equal(args[args.indexOf('--host') + 1], '127.0.0.1', 'the runtime listens on loopback only');
  t.equal(args[args.indexOf('--port') + 1], '8081', 'where upstream.url points');
  t.notOk(runtime.ports, 'the runtime declares no port');
  t.equal(gateway.image, runtime.image, 'the bundled runtime from the same image');
  t.notOk(gateway.command ?? gateway.args, "the gateway runs the image's CMD (serve)");
  t.same(service.spec.ports, [{ name: 'http', port: 80, targetPort: 'http' }]);
  t.equal(portOf(gateway, 'http'), config.listen.port);
});

t.test('probes and Prometheus scraping on the admin port', async (t) => {
  const { config } = gatewayConfig();
  t.equal(config.admin.host, '0.0.0.0', 'reachable by the kubelet and Prometheus');
  t.equal(portOf(gateway, 'admin'), config.admin.port);
  t.same(gateway.livenessProbe.httpGet, { path: '/healthz', port: 'admin' });
  t.same(gateway.readinessProbe.httpGet, { path: '/readyz', port: 'admin' });
  t.same(deployment.spec.template.metadata.annotations, {
    'prometheus.io/scrape': 'true',
    'prometheus.io/port': String(config.admin.port),
    'prometheus.io/path': '/metrics',
  });
  t.match(
    runtime.readinessProbe.exec.command.join(' '),
    /^node -e fetch\('http:\/\/127\.0\.0\.1:8081\/health'\)/,
    "the runtime's probe runs inside its container (it listens on loopback)",
  );
});

t.test('config from the ConfigMap, secrets from the Secret through ${NAME}', async (t) => {
  const mounts = (c: Manifest): Manifest[] => c.volumeMounts as Manifest[];
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
  // The runtime gets only the identity secret, from the same Secret key as the gateway's.
  t.same(
    runtime.env,
    (gateway.env as Manifest[]).filter((e) => e.name === 'SCOPEGATE_IDENTITY_SECRET'),
    'the runtime verifies with the key the gateway signs with, and gets nothing else',
  );

  const { config } = gatewayConfig();
  t.equal(config.auth.authorization, true);
  t.equal(config.auth.verification_keys[0], RSA_KEY.publicPem, 'the key from the environment');
  t.equal(config.upstream.identity_secret, secret.stringData['identity-secret']);
  t.equal(config.auth.internal_service_token, secret.stringData['internal-service-token']);
  t.match(config.auth.service_accounts.store, /^sqlite:\/var\/lib\/scopegate\//);
  t.match(config.policies, ['/app/policies/defaults.yaml'], 'the shipped policies first');
  const local = config.policies?.at(-1) as string;
  t.equal(
    parsePolicyText(configMap.data[local], local).problems.length,
    0,
    `${local} (from the ConfigMap) is a valid policy file`,
  );

  const runtimeConfig = parseConfig(configMap.data['runtime.yaml'], '/etc/scopegate/runtime.yaml', {
    env: {},
  });
  t.ok(runtimeSettingsSchema.safeParse(runtimeConfig.config.runtime).success, 'runtime.yaml');
  t.equal(runtime.command[runtime.command.indexOf('--config') + 1], '/etc/scopegate/runtime.yaml');
});

t.test('shutdown: the grace period covers the pause and the drain bound', async (t) => {
  const { config } = gatewayConfig();
  const boundS = config.listen.shutdown_grace_ms / 1000;
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

t.test('non-root, read-only root file system, state on the data volume', async (t) => {
  t.match(pod.securityContext, { runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
  for (const c of containers) {
    t.match(
      c.securityContext,
      {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
      c.name,
    );
    t.ok(
      (c.volumeMounts as Manifest[]).some((m) => m.mountPath === '/var/lib/scopegate'),
      `${c.name}: /var/lib/scopegate is writable`,
    );
  }
  t.equal(deployment.spec.strategy.type, 'Recreate', 'one pod at a time on the RWO volume');
});
