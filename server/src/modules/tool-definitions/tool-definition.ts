import type { JobName, JobPayloads, ToolContract, ToolQuote, UpscaleModel } from '@imagestudio/contracts';
import type { ToolSettings } from './tools.settings';
import type { ToolDefinitionsDeps } from './tool-definitions.deps';

/** What the time-left estimate knows of a job or a recent run: its params and its input's size. */
export interface SizedJob {
  params: Record<string, unknown>;
  input_width: number | null;
  input_height: number | null;
}

/** A queue payload without the ids every payload carries (admitJobs adds them). */
type PayloadFields<N extends JobName> = Omit<JobPayloads[N], 'jobId' | 'userId' | 'requestId'>;

/** GET /api/tools/quote's query, as parsed by quoteQuerySchema. */
export interface QuoteQuery {
  count: number;
  factor?: number;
  model?: UpscaleModel;
}

/** What a quote says beyond its price: how many images, and the factor and model where the tool has them. */
type QuoteFacts = Pick<ToolQuote, 'count' | 'factor' | 'model'> & { unitTenths: number };

/**
 * The server side of one tool: everything the single tool call, batches, retries, quotes and the time-left
 * estimate need to know about it, so none of them branches on the tool's name. `P` is the tool's params as
 * stored on the job row (the request's fields after the settings' checks).
 */
export interface ToolDefinition<out N extends JobName, P extends Record<string, unknown>> {
  /** The tool's definition in the contracts (name, label, price setting, schemas). */
  contract: ToolContract & { name: N };
  /** The request's fields (JSON body or multipart fields) checked against the schema and the settings (422). */
  parse(fields: unknown, settings: ToolSettings): P;
  /** Checks against the live workers before anything is charged (an upscaling model none of them runs: 422). */
  assertRunnable?(ctx: ToolDefinitionsDeps, params: P): Promise<void>;
  /** A check of each uploaded image beyond the common upload checks (the upscaled size). */
  checkImage?(params: P, image: { width: number; height: number }): void;
  /**
   * A check of the further files (the contract's `fileFields`, already checked and cleaned like images) against
   * the checked image, before anything is charged (erase's mask: the photo's shape, something painted): 422.
   */
  checkFiles?(
    params: P,
    image: { width: number; height: number },
    files: Record<string, { bytes: Buffer }>,
  ): Promise<void>;
  /** What one job with these params costs, in tenths of a token. */
  costTenths(settings: ToolSettings, params: P): number;
  /**
   * The least one job of the tool can cost, whatever its options (default: the tool's price setting). The balance
   * is checked against it before an upload is read or decoded, so a call nobody can pay for costs no work.
   */
  cheapestTenths?(settings: ToolSettings): number;
  /** The tool's part of GET /api/tools/quote. */
  quote(settings: ToolSettings, query: QuoteQuery): QuoteFacts;
  /**
   * The queue payload's tool fields, from the params stored on the row, the stored input's S3 key and the keys
   * of the further files the contract's `fileFields` took (by field).
   */
  payload(params: P, inputKey: string | null, fileKeys: Record<string, string>): PayloadFields<N>;
  /**
   * The work in a job, in units whose cost is about the same from one job to the next, for the time-left
   * estimate; null when the job's size is not known (rows from before sizes were kept).
   */
  workUnits(job: SizedJob): number | null;
  /** Whether a recent run's timing can predict this job's (default: any run of the tool). */
  comparable?(job: SizedJob, run: SizedJob): boolean;
}

/** A definition of any tool, as code that does not know which tool it runs holds it. */
export type AnyToolDefinition = ToolDefinition<JobName, Record<string, unknown>>;
