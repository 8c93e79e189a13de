/**
 * deploy/kubernetes: every manifest validates against the Kubernetes JSON
 * schemas (kubernetes-models), and the base holds what running the service
 * on a cluster needs: both servers with probes on a management port no Service
 * publishes, resources, a migration init container in every pod on its own
 * Secret key (DATABASE_DIRECT_URL), an Ingress with TLS, Services,
 * PodDisruptionBudgets, an autoscaler for the edge (and no replica count
 * beside it), and NetworkPolicies that let only the edge reach the
 * authorization server's HTTP port and the monitoring namespace reach both
 * management ports.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from '@heroes/test-kit';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';

const dir = path.join(repoRoot, 'deploy/kubernetes');
type Manifest = { apiVersion: string; kind: string; metadata: { name: string } } & Record<string, unknown>;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
};

function loadBase(): Manifest[] {
  const kustomization = parseAllDocuments(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as { resources: string[] };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest;
    }),
  );
}

const manifests = loadBase();
const find = <T>(kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name) as T | undefined;

test('every file of the kustomization is listed, and every manifest validates against its schema', (t) => {
  const listed = new Set((parseAllDocuments(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as { resources: string[] }).resources);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')) t.true(listed.has(file), file);
  for (const manifest of manifests) {
    const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
    t.truthy(Model, `no schema model for ${manifest.apiVersion} ${manifest.kind}`);
    t.notThrows(() => new Model!(manifest as never).validate(), `${manifest.kind}/${manifest.metadata.name}`);
  }
});

test('a broken manifest is caught by the validation (the check can fail)', (t) => {
  const deployment = structuredClone(find<IDeployment>('Deployment', 'heroes-resource-server')!);
  (deployment.spec!.template.spec!.containers[0] as unknown as Record<string, unknown>)['ports'] = 'eight-eight-eight-eight';
  t.throws(() => new Deployment(deployment).validate());
});

test('both servers run compiled JavaScript with probes on /health, resources, a drain window and a disruption budget', (t) => {
  for (const [name, port] of [['heroes-auth-server', 8889], ['heroes-resource-server', 8888]] as const) {
    const deployment = find<IDeployment>('Deployment', name);
    const pod = deployment?.spec?.template.spec;
    const container = pod?.containers[0];
    t.truthy(container, name);
    const server = name.replace(/^heroes-/, '');
    t.deepEqual(container!.command, ['node', '--import', `./packages/${server}/dist/register-tracing.js`, `packages/${server}/dist/main.js`], 'no tsx at run time; tracing loaded first');
    t.is(container!.ports![0]!.containerPort, port);
    t.is(container!.readinessProbe?.httpGet?.path, '/health/ready');
    t.is(container!.livenessProbe?.httpGet?.path, '/health/live');
    t.is(container!.startupProbe?.httpGet?.path, '/health/live');
    t.truthy(container!.resources?.requests?.['cpu']);
    t.truthy(container!.resources?.limits?.['memory']);
    t.true(pod!.securityContext?.runAsNonRoot);
    t.true((pod!.terminationGracePeriodSeconds ?? 30) * 1000 > 10_000 + 5_000, 'drain plus preStop fit in the grace period');
    t.truthy(find('PodDisruptionBudget', name));
    t.truthy(find('Service', name));
  }
  const hpa = find<{ spec: { scaleTargetRef: { name: string }; minReplicas: number } }>('HorizontalPodAutoscaler', 'heroes-resource-server');
  t.is(hpa?.spec.scaleTargetRef.name, 'heroes-resource-server');
  t.true((hpa?.spec.minReplicas ?? 0) >= 2);
});

test('probes kubelet can reach and the public cannot: every probe on the management port, which the server opens and no Service or Ingress publishes', (t) => {
  const published = new Set<unknown>();
  for (const service of manifests.filter((m) => m.kind === 'Service') as unknown as { spec: { ports: { port: number; targetPort?: unknown }[] } }[]) {
    for (const port of service.spec.ports) published.add(port.targetPort ?? port.port);
  }
  for (const [name, variable] of [['heroes-auth-server', 'AUTH_MANAGEMENT_PORT'], ['heroes-resource-server', 'MANAGEMENT_PORT']] as const) {
    const container = find<IDeployment>('Deployment', name)!.spec!.template.spec!.containers[0]!;
    const management = container.ports!.find((port) => port.name === 'management');
    t.truthy(management, `${name}: a port named management`);
    t.is(container.env!.find((entry) => entry.name === variable)?.value, String(management!.containerPort), `${name} opens it (${variable})`);
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) t.is(probe?.httpGet?.port, 'management', name);
    t.false(published.has('management') || published.has(management!.containerPort), `${name}: no Service publishes the management port`);
  }
});

test('no replica count beside an autoscaler: `kubectl apply -k` would reset what the HPA scaled', (t) => {
  const autoscalers = manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler') as unknown as { spec: { scaleTargetRef: { kind: string; name: string } } }[];
  t.true(autoscalers.length > 0);
  for (const hpa of autoscalers) {
    const target = find<IDeployment>(hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name);
    t.truthy(target, hpa.spec.scaleTargetRef.name);
    t.is(target!.spec!.replicas, undefined, `${hpa.spec.scaleTargetRef.name} sets replicas beside its autoscaler`);
  }
});

test('the migration runs before each server starts (an init container of every pod), never as a Job applied beside the rollout', (t) => {
  t.is(manifests.filter((m) => m.kind === 'Job').length, 0, 'a Job is applied together with the Deployments, and its template is immutable');
  for (const name of ['heroes-auth-server', 'heroes-resource-server']) {
    const pod = find<IDeployment>('Deployment', name)!.spec!.template.spec!;
    const init = pod.initContainers ?? [];
    t.is(init.length, 1, name);
    t.deepEqual(init[0]!.command, ['node', 'packages/db/dist/migrate-command.js']);
    t.is(init[0]!.image, pod.containers[0]!.image, 'the same image as the server: its own migrations');
    // Its own Secret key: a session of its own, never the servers' (possibly pooled) DATABASE_URL.
    t.is(init[0]!.envFrom, undefined);
    t.deepEqual(init[0]!.env, [{ name: 'DATABASE_DIRECT_URL', valueFrom: { secretKeyRef: { name: 'heroes-database', key: 'DATABASE_DIRECT_URL' } } }]);
  }
});

test('an Ingress with TLS in front of the edge, and the forwarded-address settings that match it', (t) => {
  const ingress = find<IIngress>('Ingress', 'heroes');
  const config = find<{ data: Record<string, string> }>('ConfigMap', 'heroes-config')!.data;
  const publicUrl = new URL(config['PUBLIC_BASE_URL']!);
  t.is(publicUrl.protocol, 'https:');
  t.deepEqual(ingress?.spec?.tls, [{ hosts: [publicUrl.host], secretName: 'heroes-tls' }]);
  const rule = ingress!.spec!.rules![0]!;
  t.is(rule.host, publicUrl.host);
  t.deepEqual(rule.http!.paths[0]!.backend, { service: { name: 'heroes-resource-server', port: { number: 8888 } } });
  t.is(config['TRUST_PROXY'], '1', 'one trusted hop: the ingress controller');
  t.is(find<{ spec: { type?: string } }>('Service', 'heroes-resource-server')?.spec.type ?? 'ClusterIP', 'ClusterIP', 'reached only through the ingress');
});

const MONITORING = [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }];

test('only the edge may reach the authorization server\'s HTTP port; the monitoring namespace reaches both management ports', (t) => {
  const policies = manifests.filter((m) => m.kind === 'NetworkPolicy') as unknown as INetworkPolicy[];
  const forAuth = policies.filter((p) => p.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'heroes-auth-server');
  t.is(forAuth.length, 1);
  const rules = forAuth[0]!.spec!.ingress!;
  t.is(rules.length, 2);
  t.deepEqual(rules[0]!.from, [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'heroes-resource-server' } } }]);
  t.deepEqual(rules[0]!.ports, [{ protocol: 'TCP', port: 8889 }]);
  t.deepEqual(rules[1], { from: MONITORING, ports: [{ protocol: 'TCP', port: 9000 }] }, 'Prometheus scrapes the authorization server');
  const forEdge = policies.filter((p) => p.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'heroes-resource-server');
  t.is(forEdge.length, 1);
  t.deepEqual(forEdge[0]!.spec!.ingress, [{ ports: [{ protocol: 'TCP', port: 8888 }] }, { from: MONITORING, ports: [{ protocol: 'TCP', port: 9000 }] }]);
  const service = find<{ spec: { type?: string } }>('Service', 'heroes-auth-server');
  t.is(service?.spec.type ?? 'ClusterIP', 'ClusterIP', 'never exposed outside the cluster');
});
