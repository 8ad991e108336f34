import { parse } from 'yaml';
import { readRepoFile, unknownEnvNames } from './deploy.test-support';

/**
 * docker-compose.yml (one machine) and docker-compose.worker.yml (a worker on a second host), read as compose reads
 * them: what a first start insists on (`${NAME:?message}`), the one app image, and the settings each process gets.
 */

interface Service {
  image?: string;
  build?: { args?: Record<string, string> };
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  stop_grace_period?: string;
  restart?: string;
}

interface ComposeFile {
  text: string;
  services: Record<string, Service>;
}

function load(path: string): ComposeFile {
  const text = readRepoFile(path);
  const doc = parse(text, { merge: true }) as { services: Record<string, Service> };
  return { text, services: doc.services };
}

/** The variables a file refuses to start without: `${NAME:?...}` or `${NAME?...}`. */
function required(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z0-9_]+):?\?/g)].map((m) => m[1]!))].sort();
}

/** The services that run our image (the others are Postgres, Redis and MinIO). */
function appServices(file: ComposeFile): Array<[string, Service]> {
  return Object.entries(file.services).filter(([, s]) => s.image?.includes('imagestudio'));
}

const isWorker = (s: Service) => s.command?.join(' ') === 'node dist/worker.js';

describe('docker-compose.yml (one machine)', () => {
  const file = load('docker-compose.yml');

  it('insists only on the two secrets with no safe default', () => {
    expect(required(file.text)).toEqual(['MINIO_ROOT_PASSWORD', 'SESSION_SECRET']);
  });

  it('builds one image once and runs the migrations, the API and every worker on it', () => {
    const app = appServices(file);
    expect(app.map(([name]) => name).sort()).toEqual(['migrate', 'server', 'worker', 'worker-api', 'worker-gpu']);
    expect(new Set(app.map(([, s]) => s.image)).size).toBe(1);
    expect(app.filter(([, s]) => s.build !== undefined).map(([name]) => name)).toEqual(['migrate']);
    expect(file.services.server!.command).toBeUndefined(); // the image's CMD: node dist/server.js
  });

  it('gives the API the S3 address browsers reach, and mail and payments as optional settings', () => {
    const env = file.services.server!.environment!;
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    expect(env.S3_PUBLIC_ENDPOINT).toBe('${S3_PUBLIC_ENDPOINT:-http://localhost:9000}');
    expect(env.SMTP_URL).toBe('${SMTP_URL:-}');
    expect(env.STRIPE_SECRET_KEY).toBe('${STRIPE_SECRET_KEY:-}');
  });

  it('runs the GPU and hosted-API workers only in their profiles, and lets every worker drain on stop', () => {
    expect(file.services['worker-gpu']!.profiles).toEqual(['gpu']);
    expect(file.services['worker-api']!.profiles).toEqual(['api']);
    expect(file.services.worker!.profiles).toBeUndefined();
    for (const [name, service] of appServices(file).filter(([, s]) => isWorker(s))) {
      expect([name, service.stop_grace_period]).toEqual([name, '90s']);
      expect([name, service.environment?.SESSION_SECRET]).toEqual([name, undefined]);
      expect([name, service.environment?.DATABASE_URL]).toEqual([name, undefined]);
    }
  });

  it('sets only variables the API or the worker reads', () => {
    const names = appServices(file).flatMap(([, s]) => Object.keys(s.environment ?? {}));
    expect(unknownEnvNames(names)).toEqual([]);
  });
});

describe('docker-compose.worker.yml (a worker host)', () => {
  const file = load('docker-compose.worker.yml');

  it('needs only the queue and the S3 store', () => {
    expect(required(file.text)).toEqual(['REDIS_URL', 'S3_ENDPOINT', 'S3_SECRET_ACCESS_KEY']);
    expect(Object.keys(file.services).sort()).toEqual(['worker', 'worker-cpu']);
    for (const service of Object.values(file.services)) {
      expect(isWorker(service)).toBe(true);
      expect(service.stop_grace_period).toBe('90s');
      expect(service.environment?.DATABASE_URL).toBeUndefined();
      expect(service.environment?.SMTP_URL).toBeUndefined();
    }
  });

  it('runs the image of the main file, a GPU worker by default and a CPU one in its profile', () => {
    const main = load('docker-compose.yml');
    expect(new Set([...appServices(main), ...appServices(file)].map(([, s]) => s.image)).size).toBe(1);
    expect(file.services.worker!.environment!.WORKER_REQUIRE_GPU).toBe('${WORKER_REQUIRE_GPU:-true}');
    expect(file.services['worker-cpu']!.profiles).toEqual(['cpu']);
  });

  it('builds the GPU image on a CUDA 12 and cuDNN 9 runtime base with the CUDA provider of onnxruntime', () => {
    expect(file.services.worker!.build!.args).toEqual({
      ONNXRUNTIME_NODE_INSTALL: '${ONNXRUNTIME_NODE_INSTALL:-cuda12}',
      RUNTIME_BASE: expect.stringMatching(/^\$\{RUNTIME_BASE:-nvidia\/cuda:12\.[\d.]+-cudnn-runtime-[\w.]+\}$/),
    });
    // The Dockerfile's runtime stage is that base, with Node's binary copied in (the CUDA base has none).
    const dockerfile = readRepoFile('Dockerfile');
    expect(dockerfile).toMatch(/^ARG RUNTIME_BASE=node:24-bookworm-slim$/m);
    expect(dockerfile.match(/^FROM .*$/gm)!.at(-1)).toBe('FROM ${RUNTIME_BASE}');
    expect(dockerfile).toContain('COPY --from=deps /usr/local/bin/node /usr/local/bin/node');
  });

  it('sets only variables the worker reads', () => {
    const names = Object.values(file.services).flatMap((s) => Object.keys(s.environment ?? {}));
    expect(unknownEnvNames(names)).toEqual([]);
  });
});
