import type { JobName } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { assertToolAvailable } from '../tools/tools.status';
import type { CleanImage } from '../uploads/image-inspect';
import { admitJobs, cleanInput, type JobInputFile } from './admit-jobs';
import { checkIdempotencyKey, oncePerKey, requestFingerprint } from './idempotency';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';

export interface SubmitRequest {
  userId: string;
  tool: JobName;
  /** What the user asked for, stored on the row and shown back. */
  params: Record<string, unknown>;
  costTenths: number;
  /** Checks and cleans the upload (tools with an input image); runs only after the cheap checks pass. */
  prepareInput?: () => Promise<CleanImage>;
  /** Checks and cleans the request's further files (a background image), after prepareInput. */
  prepareFiles?: () => Promise<Record<string, JobInputFile>>;
  /** The raw bytes the user sent, part of the idempotency fingerprint. */
  rawInput?: Buffer;
  /** The uploaded file's name, kept to name the result's download. */
  inputName?: string | null;
  idempotencyKey?: string;
  requestId?: string;
}

export interface SubmitOutcome {
  job: JobRow;
  /** true when an Idempotency-Key matched an earlier request: nothing new was charged. */
  replayed: boolean;
}

/**
 * Accepts one job (a tool call): an Idempotency-Key replay answers with the first job, then the tool's
 * availability (503 before charging), the upload's checks, then admitJobs (charge, row, queue).
 */
export async function submitJob(ctx: AppContext, req: SubmitRequest): Promise<SubmitOutcome> {
  const key = req.idempotencyKey;
  checkIdempotencyKey(key);
  const hash = key ? requestFingerprint(req.tool, req.params, req.rawInput) : null;
  const find = (k: string) => repo.findByIdempotencyKey(ctx.db, req.userId, k);
  const outcome = await oncePerKey({ key, hash, find }, async () => {
    await assertToolAvailable(ctx, req.tool);
    const clean = req.prepareInput ? await req.prepareInput() : null;
    const files = req.prepareFiles ? await req.prepareFiles() : {};
    const { jobs } = await admitJobs(ctx, {
      userId: req.userId,
      tool: req.tool,
      requestId: req.requestId,
      idempotency: key && hash ? { key, hash } : undefined,
      jobs: [
        {
          params: req.params,
          costTenths: req.costTenths,
          input: clean ? { ...cleanInput(clean, req.inputName ?? null), files } : undefined,
        },
      ],
    });
    return jobs[0]!;
  });
  return outcome.replayed ? { job: outcome.earlier, replayed: true } : { job: outcome.value, replayed: false };
}
