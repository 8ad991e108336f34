/**
 * The worker's one gateway to onnxruntime-node (no other module imports it).
 *
 * Usage:
 *   const runtime = await InferenceRuntime.start({ providers: ['cuda', 'cpu'], requireGpu: false, cpuThreads: 2 });
 *   const session = await runtime.load('/path/model.onnx');     // once, at worker start
 *   session.provider;                                           // 'cuda' | 'webgpu' | 'cpu': what actually loaded
 *   const { outputs, ms } = await session.run(
 *     { input: { type: 'float32', data: new Float32Array(n), dims: [1, 3, h, w] } },
 *     ['output'],                                               // fetch only what you need
 *   );
 *   outputs.output.data;                                        // a typed array, outputs.output.dims its shape
 *   await runtime.close();                                      // at shutdown
 *
 * Why a thread: onnxruntime-node's `session.run` is synchronous native code behind a setImmediate (its
 * binding says "simple synchronized inference session"), so on the main thread it blocks the event loop for
 * the whole run (measured: see worker/README.md). BullMQ lock renewal, heartbeats and Redis replies would stall
 * for as long as the slowest run (many seconds for a CPU UNet step). All sessions of a runtime therefore live in
 * one worker thread; runs are queued there one after another, which also keeps CPU runs from oversubscribing the
 * cores (each run already uses `cpuThreads` intra-op threads). Inputs are transferred, not copied.
 *
 * Provider choice: for each model the configured providers are tried in order, each on its own, and the first
 * that creates a session wins; failures are logged. `requireGpu` turns "only cpu loaded" into an error instead
 * of a silent fallback. Nodes a GPU provider cannot run still fall back to CPU inside onnxruntime, as usual.
 *
 * `inline: true` runs sessions on the calling thread instead (benchmarks use it to measure bare inference and
 * the event-loop blocking this module avoids).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExecutionProvider } from '@imagestudio/contracts';
import type { Logger } from '@imagestudio/runtime';

export type TensorType = 'float32' | 'float16' | 'int32' | 'int64' | 'uint8' | 'int8' | 'bool';
export type TensorArray = Float32Array | Uint16Array | Int32Array | BigInt64Array | Uint8Array | Int8Array;

/** A plain tensor: element type, data and shape (NCHW for images). Crosses the thread boundary as is. */
export interface TensorData {
  type: TensorType;
  data: TensorArray;
  dims: number[];
}

export interface RuntimeOptions {
  /** Ordered preference; the first that creates a session is used. */
  providers: readonly ExecutionProvider[];
  /** Throw when no GPU provider (cuda, webgpu) could be used. */
  requireGpu: boolean;
  /** CPU intra-op threads (the machine's cores by default). */
  cpuThreads: number;
  logger?: Logger;
  /** Run on the calling thread (benchmarks only). */
  inline?: boolean;
}

export interface RunResult {
  outputs: Record<string, TensorData>;
  /** Milliseconds spent inside onnxruntime's run, without the thread hop. */
  ms: number;
}

const GPU_PROVIDERS: readonly ExecutionProvider[] = ['cuda', 'webgpu'];

/**
 * onnxruntime's intra-op threads busy-wait for more work after each run by default. On CPU the work that follows a
 * run is the pipeline's own (matte refinement, encoding) on the main thread, which the spinning threads then
 * compete with: measured on 2 cores (load 3.3, int8 ISNet at 1024^2, 7 alternating runs each), JavaScript right
 * after a run took a median 73 ms with spinning and 36 ms without, and the runs themselves 1671 vs 1458 ms.
 */
const NO_SPINNING = { session: { intra_op: { allow_spinning: '0' } } } as const;

export class InferenceRequireGpuError extends Error {}

/** Execution providers this onnxruntime-node build can load (cpu, webgpu bundled; cuda when installed). */
export function supportedProviders(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
  return ort.listSupportedBackends().map((b) => b.name);
}

/** What pipelines need from a session: tests may wrap it (e.g. to memoise runs). */
export type ModelRunner = Pick<ModelSession, 'run'>;

/** One loaded model in the runtime's thread. */
export class ModelSession {
  constructor(
    private readonly runtime: InferenceRuntime,
    readonly id: number,
    readonly modelPath: string,
    readonly provider: ExecutionProvider,
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
  ) {}

  /** Runs the model on named inputs and returns only the requested outputs. */
  run(feeds: Record<string, TensorData>, outputs: readonly string[]): Promise<RunResult> {
    return this.runtime.call(
      'run',
      { session: this.id, feeds, outputs: [...outputs] },
      Object.values(feeds).map((t) => t.data.buffer as ArrayBuffer),
    ) as Promise<RunResult>;
  }

  /** Gives up this holder's use of the model; its memory is freed when the last holder lets go (the runtime stays up). */
  async release(): Promise<void> {
    await this.runtime.releaseShared(this);
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** Owns the inference thread and every session in it. */
export class InferenceRuntime {
  private nextCall = 1;
  private nextSession = 1;
  private readonly pending = new Map<number, Pending>();
  /**
   * Each model file is loaded once and shared by every tool that loads it (background removal and the AI
   * background both cut out with the same matting model), counted by its holders.
   */
  private readonly shared = new Map<string, { session: Promise<ModelSession>; holders: number }>();
  private closed = false;

  private constructor(
    readonly options: RuntimeOptions,
    private readonly thread: Worker | null,
    private readonly inlineHost: InlineHost | null,
  ) {
    thread?.on('message', (msg: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(msg.error));
    });
    thread?.on('error', (err) => this.failAll(err));
    thread?.on('exit', (code) => this.failAll(new Error(`inference thread exited with code ${code}`)));
  }

  /** Starts the inference thread (or the inline host). Does not load any model yet. */
  static async start(options: RuntimeOptions): Promise<InferenceRuntime> {
    if (options.providers.length === 0) throw new Error('no execution provider configured');
    if (options.inline) return new InferenceRuntime(options, null, new InlineHost());
    const thread = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { ortPath: require.resolve('onnxruntime-node') },
    });
    return new InferenceRuntime(options, thread, null);
  }

  /**
   * A model's session: loaded on first use (trying the configured providers in order), then the same session for
   * every later load of the same file until each holder has released it.
   */
  load(modelPath: string): Promise<ModelSession> {
    const file = path.resolve(modelPath);
    let entry = this.shared.get(file);
    if (!entry) {
      const created = { session: this.open(file), holders: 0 };
      // A failed load is not kept: the next one tries again.
      created.session.catch(() => {
        if (this.shared.get(file) === created) this.shared.delete(file);
      });
      this.shared.set(file, created);
      entry = created;
    }
    entry.holders += 1;
    return entry.session;
  }

  /** @internal One holder of `session` lets go; the last one frees it. */
  async releaseShared(session: ModelSession): Promise<void> {
    const entry = this.shared.get(session.modelPath);
    if (entry && (entry.holders -= 1) > 0) return;
    this.shared.delete(session.modelPath);
    await this.call('release', { session: session.id });
  }

  /** Loads a model, trying the configured providers in order; logs and reports the one that loaded. */
  private async open(modelPath: string): Promise<ModelSession> {
    const failures: string[] = [];
    for (const provider of this.options.providers) {
      const id = this.nextSession++;
      try {
        const info = (await this.call('open', {
          session: id,
          path: path.resolve(modelPath),
          options: this.sessionOptions(provider),
        })) as {
          inputNames: string[];
          outputNames: string[];
        };
        if (this.options.requireGpu && !GPU_PROVIDERS.includes(provider)) {
          await this.call('release', { session: id });
          throw new InferenceRequireGpuError(
            `WORKER_REQUIRE_GPU=true but no GPU provider could load ${path.basename(modelPath)} (${failures.join('; ') || 'no GPU provider configured'})`,
          );
        }
        this.options.logger?.info({ model: path.basename(modelPath), provider, failed: failures }, 'model loaded');
        return new ModelSession(this, id, modelPath, provider, info.inputNames, info.outputNames);
      } catch (err) {
        if (err instanceof InferenceRequireGpuError) throw err;
        failures.push(`${provider}: ${(err as Error).message.split('\n')[0]}`);
        this.options.logger?.warn(
          { model: path.basename(modelPath), provider, err: (err as Error).message },
          'execution provider failed to load the model',
        );
      }
    }
    if (this.options.requireGpu) {
      throw new InferenceRequireGpuError(
        `WORKER_REQUIRE_GPU=true but no GPU provider could load ${path.basename(modelPath)} (${failures.join('; ')})`,
      );
    }
    throw new Error(`no execution provider could load ${modelPath}: ${failures.join('; ')}`);
  }

  /** Stops the thread and frees every session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.inlineHost) await this.inlineHost.closeAll();
    if (this.thread) await this.thread.terminate();
  }

  /** @internal message to the thread (or the inline host). */
  call(op: string, args: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('inference runtime is closed'));
    if (this.inlineHost) return this.inlineHost.handle(op, args);
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A buffer shared by two feeds (or a subarray of a pooled buffer) cannot be transferred twice; copy then.
      const unique = [...new Set(transfer)];
      try {
        this.thread!.postMessage({ id, op, ...args }, unique);
      } catch {
        this.thread!.postMessage({ id, op, ...args });
      }
    });
  }

  private sessionOptions(provider: ExecutionProvider): Record<string, unknown> {
    // On CPU: sequential execution, intra-op threads = cores, one inter-op thread (parallel mode was slower).
    return {
      executionProviders: [provider],
      executionMode: 'sequential',
      intraOpNumThreads: this.options.cpuThreads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      // On CPU, onnxruntime's memory pattern (one planned block per input shape) cost ISNet 1.6-1.7 GB peak RSS
      // instead of 1.06-1.14 GB and made its second run as slow as its first, for no steady-state gain (warm
      // 1024^2 runs 1114-1217 ms without it, 1156-1312 ms with it; worker/README.md). GPU providers keep it:
      // unmeasured there.
      ...(provider === 'cpu' ? { enableMemPattern: false, extra: NO_SPINNING } : {}),
    };
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/** The same protocol as the thread, on the calling thread (benchmarks only). */
class InlineHost {
  private readonly sessions = new Map<number, import('onnxruntime-node').InferenceSession>();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  private readonly ort = require('onnxruntime-node') as typeof import('onnxruntime-node');

  async handle(op: string, args: Record<string, unknown>): Promise<unknown> {
    if (op === 'open') {
      const s = await this.ort.InferenceSession.create(args.path as string, args.options as object);
      this.sessions.set(args.session as number, s);
      return { inputNames: s.inputNames, outputNames: s.outputNames };
    }
    if (op === 'run') {
      const s = this.sessions.get(args.session as number);
      if (!s) throw new Error('unknown session');
      const feeds: Record<string, import('onnxruntime-node').Tensor> = {};
      for (const [name, t] of Object.entries(args.feeds as Record<string, TensorData>))
        feeds[name] = new this.ort.Tensor(t.type, t.data, t.dims);
      const t0 = performance.now();
      const out = await s.run(feeds, args.outputs as string[]);
      const ms = performance.now() - t0;
      const outputs: Record<string, TensorData> = {};
      for (const name of args.outputs as string[]) {
        const o = out[name]!;
        outputs[name] = { type: o.type as TensorType, data: o.data as TensorArray, dims: [...o.dims] };
      }
      return { outputs, ms };
    }
    if (op === 'release') {
      await this.sessions.get(args.session as number)?.release();
      this.sessions.delete(args.session as number);
      return null;
    }
    throw new Error(`unknown op ${op}`);
  }

  async closeAll(): Promise<void> {
    for (const s of this.sessions.values()) await s.release();
    this.sessions.clear();
  }
}

// Plain JavaScript so the thread starts the same under tsx, jest and compiled builds; it only needs onnxruntime-node.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
const sessions = new Map();
async function handle(msg) {
  if (msg.op === 'open') {
    const s = await ort.InferenceSession.create(msg.path, msg.options);
    sessions.set(msg.session, s);
    return { inputNames: s.inputNames, outputNames: s.outputNames };
  }
  if (msg.op === 'run') {
    const s = sessions.get(msg.session);
    if (!s) throw new Error('unknown session ' + msg.session);
    const feeds = {};
    for (const [name, t] of Object.entries(msg.feeds)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    const t0 = performance.now();
    const out = await s.run(feeds, msg.outputs);
    const ms = performance.now() - t0;
    const outputs = {};
    for (const name of msg.outputs) {
      const o = out[name];
      outputs[name] = { type: o.type, data: o.data, dims: Array.from(o.dims) };
    }
    return { outputs, ms };
  }
  if (msg.op === 'release') {
    const s = sessions.get(msg.session);
    sessions.delete(msg.session);
    if (s) await s.release();
    return null;
  }
  throw new Error('unknown op ' + msg.op);
}
parentPort.on('message', (msg) => {
  handle(msg).then(
    (value) => {
      const transfer = value && value.outputs ? Object.values(value.outputs).map((t) => t.data.buffer) : [];
      try { parentPort.postMessage({ id: msg.id, ok: true, value }, transfer); }
      catch { parentPort.postMessage({ id: msg.id, ok: true, value }); }
    },
    (err) => parentPort.postMessage({ id: msg.id, ok: false, error: String((err && err.message) || err) }),
  );
});
`;
