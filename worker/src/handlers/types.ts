import type { JobName, JobPayloads, JobResult, ToolProvider } from '@imagestudio/contracts';
import type { WorkerConfig } from '../config';
import type { ResultSigning } from '../content-credentials';
import type { InferenceRuntime, Precision } from '../inference';
import type { Logger } from '@imagestudio/runtime';
import type { WorkerStorage } from '../storage/storage';

/**
 * The contract between the queue layer and the tools. Each job name has one ToolLoader, run once at worker
 * start: it loads its models through the shared InferenceRuntime and returns a ready Tool, or `{ unavailable }`
 * with the reason (model files missing...). Jobs of an unavailable tool fail with an UnrecoverableError
 * "<tool> is not available on this worker: <reason>", never with a fake result.
 *
 * A Tool's run() gets a payload already validated with the contracts schema. It reports progress with
 * ctx.progress(percent, stage) between steps, calls ctx.checkCancelled() between steps, throws
 * UnrecoverableError (from bullmq) for input the user must fix (corrupt image...), any other error for
 * trouble worth a retry (S3, memory), and returns a contracts JobResult.
 */
export interface ToolDeps {
  config: WorkerConfig;
  runtime: InferenceRuntime;
  logger: Logger;
}

export interface JobContext<N extends JobName> {
  payload: JobPayloads[N];
  storage: WorkerStorage;
  logger: Logger;
  /** Publishes `{percent, stage}` through job.updateProgress. */
  progress(percent: number, stage: string): Promise<void>;
  /** Throws JobCancelledError when the API asked to stop this job (contracts cancelKey). */
  checkCancelled(): Promise<void>;
  /**
   * Signs each result with a C2PA manifest before it is stored (uploadResult): set by the processor when the
   * job's tool declares `contentCredentials` in its contract (or C2PA_SIGN_ALL_RESULTS is on). Absent: unsigned.
   */
  signing?: ResultSigning;
}

export interface Tool<N extends JobName> {
  /** The execution provider its main model actually runs on, or `remote:<model>` for a hosted API. */
  provider: ToolProvider;
  /** The user-selectable models this worker runs for the tool (published in the heartbeat); none = no choice. */
  models?: readonly string[];
  /** What its main model computes in (WORKER_PRECISION; published in the heartbeat); absent for remote tools. */
  precision?: Precision;
  /** A property, not a method: its parameter is then checked strictly, so a tool of one job name never fits another's. */
  run: (ctx: JobContext<N>) => Promise<JobResult>;
  /** Frees its sessions at shutdown (the runtime closes them anyway). */
  close?(): Promise<void>;
}

export interface ToolUnavailable {
  unavailable: string;
}

export type ToolLoader<N extends JobName> = (deps: ToolDeps) => Promise<Tool<N> | ToolUnavailable>;

/** Exhaustive: adding a job name to contracts without a loader is a type error. */
export type ToolLoaders = { [N in JobName]: ToolLoader<N> };
export type LoadedTools = { [N in JobName]: Tool<N> | ToolUnavailable };

/** Type guard for a loader's "not available" answer. */
export function isUnavailable<T extends object>(tool: T | ToolUnavailable): tool is ToolUnavailable {
  return 'unavailable' in tool;
}
