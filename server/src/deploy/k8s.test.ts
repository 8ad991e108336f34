import { spawnSync } from 'node:child_process';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { fromProjectRoot } from '@imagestudio/runtime';
import { API_ENV_NAMES, WORKER_ENV_NAMES, readRepoFile, unknownEnvNames } from './deploy.test-support';

/**
 * deploy/k8s without a cluster: each overlay rendered by `kubectl kustomize` (CI installs kubectl), every object
 * checked against the Kubernetes (and KEDA) schemas, and the settings each pod gets checked against the variables
 * its process reads.
 */

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

type Container = {
  name: string;
  command?: string[];
  env?: Array<{ name: string }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
};
type PodSpec = {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  nodeSelector?: Record<string, string>;
  tolerations?: Array<{ key?: string }>;
};
type Workload = K8sObject & { spec: { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } } };

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

function parseObjects(text: string, source: string): K8sObject[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]!.message}`);
    return doc.toJS() as K8sObject;
  });
}

function render(overlay: string): K8sObject[] {
  const dir = fromProjectRoot(`deploy/k8s/overlays/${overlay}`);
  const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 });
  if (run.error) {
    throw new Error(
      `kubectl is needed to render deploy/k8s (CI installs it in .ci/run): ${run.error.message}. ` +
        'Install the kubectl package (or kubernetes-client) and run the test again.',
    );
  }
  if (run.status !== 0) throw new Error(`kubectl kustomize ${overlay} failed:\n${run.stderr}`);
  return parseObjects(run.stdout, `overlays/${overlay}`);
}

/** Validates an object with the schema of its kind; a kind without a model is itself a failure. */
function validate(object: K8sObject): void {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind} (${object.metadata.name})`);
  try {
    new Model(object as never).validate();
  } catch (err) {
    throw new Error(`${object.kind} ${object.metadata.name}: ${(err as Error).message}`, { cause: err });
  }
}

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const find = <T extends K8sObject = K8sObject>(objects: K8sObject[], kind: string, name: string): T => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind} ${name} is missing`);
  return found as T;
};
const podSpec = (workload: Workload) => workload.spec.template.spec;

const secretsExample = parseObjects(readRepoFile('deploy/k8s/secrets.example.yaml'), 'secrets.example.yaml');

/** Every variable a container gets: its env entries and the keys of the ConfigMaps and Secrets it loads. */
function containerEnvNames(objects: K8sObject[], container: Container): string[] {
  const names = (container.env ?? []).map((e) => e.name);
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      names.push(...Object.keys(find<K8sObject & { data: object }>(objects, 'ConfigMap', from.configMapRef.name).data));
    }
    if (from.secretRef) {
      const secret = find<K8sObject & { stringData: object }>(secretsExample, 'Secret', from.secretRef.name);
      names.push(...Object.keys(secret.stringData));
    }
  }
  return names;
}

/** What a container's ConfigMaps and env set a variable to (its last setting wins, as in the pod). */
function envValue(objects: K8sObject[], container: Container, name: string): string | undefined {
  let value: string | undefined;
  for (const from of container.envFrom ?? []) {
    if (!from.configMapRef) continue;
    const data = find<K8sObject & { data: Record<string, string> }>(objects, 'ConfigMap', from.configMapRef.name).data;
    value = data[name] ?? value;
  }
  const env = container.env as Array<{ name: string; value?: string }> | undefined;
  return env?.find((e) => e.name === name)?.value ?? value;
}

/**
 * The worker's drain on SIGTERM in seconds (WORKER_SHUTDOWN_GRACE_S). It hands back what still runs after it and
 * needs about 15 s more to stop (worker/src/main.ts).
 */
function workerDrainSeconds(objects: K8sObject[], container: Container): number {
  const grace = envValue(objects, container, 'WORKER_SHUTDOWN_GRACE_S');
  if (grace === undefined) throw new Error('the worker pod does not set WORKER_SHUTDOWN_GRACE_S');
  return Number(grace);
}

describe.each(['cpu', 'gpu'])('deploy/k8s/overlays/%s', (overlay) => {
  const objects = render(overlay);

  it('renders objects that each pass the schema of their kind', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
      expect.arrayContaining([
        'Deployment/imagestudio-api',
        'Deployment/imagestudio-worker',
        'HorizontalPodAutoscaler/imagestudio-api',
        'Ingress/imagestudio',
        'Job/imagestudio-migrate',
        'Namespace/imagestudio',
        'PodDisruptionBudget/imagestudio-api',
        'PodDisruptionBudget/imagestudio-worker',
        'ScaledObject/imagestudio-worker',
        'Service/imagestudio-api',
        'Service/postgres',
        'Service/redis',
      ]),
    );
    for (const object of objects) validate(object);
  });

  it('holds no secret values: the Secrets are made apart from these manifests', () => {
    expect(byKind(objects, 'Secret')).toEqual([]);
    for (const secret of secretsExample) validate(secret);
    const values = secretsExample.flatMap((s) => Object.values(s.stringData as Record<string, string>));
    for (const value of values) expect(value).toMatch(/REPLACE/);
  });

  it('gives every pod only variables its process reads', () => {
    const processes: Array<[string, string, ReadonlySet<string>]> = [
      ['Deployment', 'imagestudio-api', API_ENV_NAMES],
      ['Job', 'imagestudio-migrate', API_ENV_NAMES],
      ['Deployment', 'imagestudio-worker', WORKER_ENV_NAMES],
    ];
    for (const [kind, name, known] of processes) {
      for (const container of podSpec(find<Workload>(objects, kind, name)).containers) {
        const names = containerEnvNames(objects, container);
        expect(names.length).toBeGreaterThan(3);
        expect({ [name]: unknownEnvNames(names, [known]) }).toEqual({ [name]: [] });
      }
    }
  });

  it('probes the API on /api/ready and /api/health, and routes, scales and protects it', () => {
    const api = find<Workload>(objects, 'Deployment', 'imagestudio-api');
    const [container] = podSpec(api).containers;
    expect(container!.readinessProbe?.httpGet?.path).toBe('/api/ready');
    expect(container!.livenessProbe?.httpGet?.path).toBe('/api/health');
    const podLabels = api.spec.template.metadata.labels;
    const matches = (selector: Record<string, string>) =>
      Object.entries(selector).every(([key, value]) => podLabels[key] === value);
    const service = find<K8sObject & { spec: { selector: Record<string, string> } }>(
      objects,
      'Service',
      'imagestudio-api',
    );
    expect(matches(service.spec.selector)).toBe(true);
    const pdb = find<K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } }>(
      objects,
      'PodDisruptionBudget',
      'imagestudio-api',
    );
    expect(matches(pdb.spec.selector.matchLabels)).toBe(true);
    const hpa = find<K8sObject & { spec: { scaleTargetRef: { kind: string; name: string } } }>(
      objects,
      'HorizontalPodAutoscaler',
      'imagestudio-api',
    );
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'imagestudio-api' });
    // The autoscalers own the replica counts: a count in a Deployment would reset them at every apply.
    for (const name of ['imagestudio-api', 'imagestudio-worker']) {
      expect(find<K8sObject & { spec: object }>(objects, 'Deployment', name).spec).not.toHaveProperty('replicas');
    }
    expect(JSON.stringify(find(objects, 'Ingress', 'imagestudio'))).toContain('"name":"imagestudio-api"');
  });

  it('runs the migrations in a Job with the API image', () => {
    const job = find<Workload>(objects, 'Job', 'imagestudio-migrate');
    const [container] = podSpec(job).containers;
    expect(container!.command!.join(' ')).toContain('node dist/migrate.js latest');
    const api = podSpec(find<Workload>(objects, 'Deployment', 'imagestudio-api')).containers[0] as { image?: string };
    expect((container as { image?: string }).image).toBe(api.image);
    expect(api.image).toMatch(/^[\w.-]+\/imagestudio:[\w.-]+$/); // each overlay names the release
  });

  it('lets a stopping API finish the requests in flight before it is killed', () => {
    const api = podSpec(find<Workload>(objects, 'Deployment', 'imagestudio-api'));
    const container = api.containers[0]! as Container & { lifecycle?: { preStop?: { exec?: { command: string[] } } } };
    const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
    const sleep = preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
    const grace = Number(envValue(objects, container, 'API_SHUTDOWN_GRACE_S'));
    expect(grace).toBeGreaterThan(0);
    // After the grace the API takes up to 10 s to close (server/src/main.ts).
    expect(api.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(sleep + grace + 10);
  });

  it('lets a stopping worker drain its running jobs before it is killed', () => {
    const worker = podSpec(find<Workload>(objects, 'Deployment', 'imagestudio-worker'));
    expect(worker.containers[0]!.command).toEqual(['node', 'dist/worker.js']);
    expect(worker.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      workerDrainSeconds(objects, worker.containers[0]!) + 15,
    );
  });

  it('scales the workers with KEDA on the queue depth the API exports', () => {
    type Scaled = K8sObject & {
      spec: {
        scaleTargetRef: { name: string };
        minReplicaCount: number;
        maxReplicaCount: number;
        triggers: Array<{ type: string; metadata: { query: string } }>;
      };
    };
    const { spec } = find<Scaled>(objects, 'ScaledObject', 'imagestudio-worker');
    expect(spec.scaleTargetRef.name).toBe('imagestudio-worker');
    expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
    // From zero only when the API still offers the workers' tools with none running (WORKERS_ON_DEMAND): it
    // would refuse their jobs otherwise, and an empty queue never wakes a worker.
    if (spec.minReplicaCount === 0) {
      const api = podSpec(find<Workload>(objects, 'Deployment', 'imagestudio-api')).containers[0]!;
      const worker = podSpec(find<Workload>(objects, 'Deployment', 'imagestudio-worker')).containers[0]!;
      const onDemand = envValue(objects, api, 'WORKERS_ON_DEMAND')?.split(',') ?? [];
      expect(onDemand.length).toBeGreaterThan(0);
      const workerTools = envValue(objects, worker, 'WORKER_TOOLS')?.split(',');
      if (workerTools) expect(workerTools).toEqual(expect.arrayContaining(onDemand));
    }
    const [trigger] = spec.triggers;
    expect(trigger!.type).toBe('prometheus');
    const metrics = readRepoFile('server/src/modules/jobs/job-metrics.ts');
    expect(metrics).toContain("name: 'image_queue_jobs'");
    for (const state of ['waiting', 'prioritized', 'delayed', 'active']) {
      expect(trigger!.metadata.query).toContain(state);
      expect(metrics).toContain(`'${state}'`);
    }
    expect(trigger!.metadata.query).toMatch(/^sum\(max by \(state\) \(image_queue_jobs\{state=~"[a-z|]+"\}\)\)$/);
  });

  it(overlay === 'gpu' ? 'puts each worker on a GPU node with one GPU' : 'asks no GPU for the workers', () => {
    const worker = podSpec(find<Workload>(objects, 'Deployment', 'imagestudio-worker'));
    const resources = worker.containers[0]!.resources!;
    const config = find<K8sObject & { data: Record<string, string> }>(
      objects,
      'ConfigMap',
      objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('imagestudio-worker-config-'))!.metadata
        .name,
    );
    if (overlay === 'gpu') {
      expect(resources.limits?.['nvidia.com/gpu']).toBe('1');
      expect(worker.nodeSelector).toBeDefined();
      expect(worker.tolerations?.map((t) => t.key)).toContain('nvidia.com/gpu');
      expect(config.data).toMatchObject({ WORKER_EXECUTION_PROVIDERS: 'cuda,cpu', WORKER_REQUIRE_GPU: 'true' });
    } else {
      expect(resources.limits?.['nvidia.com/gpu']).toBeUndefined();
      expect(worker.tolerations).toBeUndefined();
      expect(config.data).toMatchObject({ WORKER_EXECUTION_PROVIDERS: 'cpu' });
    }
  });
});
