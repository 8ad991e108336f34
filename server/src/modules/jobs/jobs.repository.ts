import type { Knex } from 'knex';
import type { JobName, JobResult, JobStatus, MatteDraftStroke, SubjectBox } from '@imagestudio/contracts';
import { newestFirstPage } from '../../lib/db';

/** An image_jobs row as stored (bigint columns arrive from pg as strings). */
export interface JobRow {
  id: string;
  user_id: string;
  tool: JobName;
  status: JobStatus;
  params: Record<string, unknown>;
  cost_tenths: string;
  refunded: boolean;
  progress: number;
  stage: string | null;
  error: string | null;
  error_detail: string | null;
  input_key: string | null;
  input_name: string | null;
  input_width: number | null;
  input_height: number | null;
  /** The input's WebP preview for browsers (HEIC, AVIF, TIFF and large inputs); null when it has none. */
  input_preview_key: string | null;
  result: JobResult | null;
  idempotency_key: string | null;
  request_hash: string | null;
  request_id: string | null;
  cancel_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  deleted_at: Date | null;
  expired_at: Date | null;
  /** Set on the items of a batch (POST /api/batches), with their order and the item a retry replaced. */
  batch_id: string | null;
  batch_position: number | null;
  retry_of: string | null;
  /** Background removal: the pictures re-composed from its stored cut-out, oldest first. */
  compositions: StoredComposition[];
}

/** One re-composition of a job's stored cut-out (POST /api/jobs/{id}/compose). */
export interface StoredComposition {
  key: string;
  width: number;
  height: number;
  format: 'png' | 'webp' | 'avif' | 'jpeg';
  bytes: number;
  subject_box: SubjectBox | null;
  created_at: string;
  /** Its WebP list preview (composition-keep.ts); absent on pictures made before previews were kept. */
  thumbnail_key?: string;
  /** The option fields that made it, in the job params' form; absent on pictures made before layouts were kept. */
  layout?: Record<string, string | number | boolean>;
  /** Whether the request carried an edited matte (the matte itself is not kept). */
  edited_matte?: boolean;
}

export interface NewJob {
  id: string;
  user_id: string;
  tool: JobName;
  params: Record<string, unknown>;
  cost_tenths: number;
  input_key: string | null;
  input_name?: string | null;
  input_width?: number | null;
  input_height?: number | null;
  idempotency_key: string | null;
  request_hash: string | null;
  request_id: string | null;
  batch_id?: string | null;
  batch_position?: number | null;
  retry_of?: string | null;
}

const OPEN: JobStatus[] = ['queued', 'running'];

export async function insertJob(trx: Knex.Transaction, job: NewJob): Promise<JobRow> {
  const [row] = await trx('image_jobs')
    .insert({ ...job, params: JSON.stringify(job.params) })
    .returning('*');
  return row as JobRow;
}

export async function findById(db: Knex, id: string): Promise<JobRow | null> {
  return ((await db('image_jobs').where({ id }).first()) as JobRow | undefined) ?? null;
}

/** The job only when it belongs to the user (others' jobs read as missing). */
export async function findForUser(db: Knex, id: string, userId: string): Promise<JobRow | null> {
  return ((await db('image_jobs').where({ id, user_id: userId }).first()) as JobRow | undefined) ?? null;
}

export async function findByIdempotencyKey(db: Knex, userId: string, key: string): Promise<JobRow | null> {
  return (
    ((await db('image_jobs').where({ user_id: userId, idempotency_key: key }).first()) as JobRow | undefined) ?? null
  );
}

/** Locks the row until the transaction ends, so outcomes for one job serialise. */
export async function lockJob(trx: Knex.Transaction, id: string): Promise<JobRow | null> {
  return ((await trx('image_jobs').where({ id }).forUpdate().first()) as JobRow | undefined) ?? null;
}

/** queued -> running, once; returns false when the job was not queued any more. */
export async function markRunning(db: Knex, id: string): Promise<boolean> {
  const n = await db('image_jobs')
    .where({ id, status: 'queued' })
    .update({ status: 'running', started_at: db.fn.now(), updated_at: db.fn.now() });
  return n > 0;
}

/** Progress only moves forward, and only while the job is open (a late event never rewinds an outcome). */
export async function updateProgress(db: Knex, id: string, percent: number, stage: string | null): Promise<boolean> {
  const n = await db('image_jobs')
    .where({ id })
    .whereIn('status', OPEN)
    .update({
      status: 'running',
      started_at: db.raw('coalesce(started_at, now())'),
      progress: db.raw('greatest(progress, ?)', [Math.round(percent)]),
      stage,
      updated_at: db.fn.now(),
    });
  return n > 0;
}

export interface Outcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  result?: JobResult | null;
  error?: string | null;
  error_detail?: string | null;
  refunded?: boolean;
}

export async function finishJob(trx: Knex.Transaction, id: string, outcome: Outcome): Promise<JobRow> {
  const [row] = await trx('image_jobs')
    .where({ id })
    .update({
      status: outcome.status,
      result: outcome.result ? JSON.stringify(outcome.result) : null,
      error: outcome.error ?? null,
      error_detail: outcome.error_detail ?? null,
      refunded: outcome.refunded ?? false,
      progress: outcome.status === 'succeeded' ? 100 : trx.raw('progress'),
      started_at: outcome.status === 'succeeded' ? trx.raw('coalesce(started_at, now())') : trx.raw('started_at'),
      finished_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning('*');
  return row as JobRow;
}

/**
 * Adds a re-composition to the job's list, in one statement (two at once both stay); false when the job's files
 * were deleted or expired meanwhile, so the caller removes the picture it stored instead of leaving it behind.
 */
export async function appendComposition(db: Knex, id: string, composition: StoredComposition): Promise<boolean> {
  const updated = await db('image_jobs')
    .where({ id, deleted_at: null, expired_at: null })
    .update({
      compositions: db.raw('compositions || ?::jsonb', [JSON.stringify([composition])]),
      updated_at: db.fn.now(),
    });
  return updated > 0;
}

/** Bytes of the re-composed pictures the user keeps stored (of jobs whose files are not deleted or expired). */
export async function storedCompositionBytes(db: Knex, userId: string): Promise<number> {
  const { rows } = await db.raw(
    `select coalesce(sum((c->>'bytes')::bigint), 0)::bigint as bytes
     from image_jobs j, jsonb_array_elements(j.compositions) c
     where j.user_id = ? and j.deleted_at is null and j.expired_at is null`,
    [userId],
  );
  return Number(rows[0].bytes);
}

/** Records the input's browser preview; false when the job was deleted meanwhile (its inputs are gone). */
export async function setInputPreviewKey(db: Knex, id: string, key: string): Promise<boolean> {
  const updated = await db('image_jobs')
    .where({ id, deleted_at: null })
    .update({ input_preview_key: key, updated_at: db.fn.now() });
  return updated > 0;
}

/** Marks an ended job refunded (its refund entry is written in the same transaction by the caller). */
export async function markRefunded(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('image_jobs').where({ id }).update({ refunded: true, updated_at: trx.fn.now() });
}

export async function setCancelRequested(db: Knex, id: string): Promise<void> {
  await db('image_jobs').where({ id }).update({ cancel_requested_at: db.fn.now(), updated_at: db.fn.now() });
}

/**
 * Marks the job's files gone and drops its touch-up draft in one transaction: a draft save holds the job's row
 * (saveMatteDraft) until it commits, so it either lands before and is deleted here, or sees the mark and saves nothing.
 */
export async function markFilesGone(db: Knex, id: string, column: 'deleted_at' | 'expired_at'): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('image_jobs')
      .where({ id })
      .update({ [column]: trx.fn.now(), updated_at: trx.fn.now() });
    await trx('matte_drafts').where({ job_id: id }).delete();
  });
}

/** A touch-up draft as stored (matte_drafts): the strokes as the API takes them, and when they were saved. */
export interface MatteDraftRow {
  strokes: MatteDraftStroke[];
  updated_at: Date;
}

export async function findMatteDraft(db: Knex, jobId: string): Promise<MatteDraftRow | undefined> {
  return db('matte_drafts').where({ job_id: jobId }).first('strokes', 'updated_at');
}

/**
 * Replaces the job's draft, only while its files exist: the job's row is read FOR SHARE, so a concurrent
 * markFilesGone waits for this save (and then deletes it) or this save waits for it (and then finds the row
 * marked). Undefined when the files are gone.
 */
export async function saveMatteDraft(
  db: Knex,
  jobId: string,
  strokes: MatteDraftStroke[],
): Promise<MatteDraftRow | undefined> {
  const { rows } = await db.raw(
    `insert into matte_drafts (job_id, strokes, updated_at)
     select id, ?::jsonb, now() from image_jobs
      where id = ? and deleted_at is null and expired_at is null
      for share
     on conflict (job_id) do update set strokes = excluded.strokes, updated_at = excluded.updated_at
     returning strokes, updated_at`,
    [JSON.stringify(strokes), jobId],
  );
  return (rows as MatteDraftRow[])[0];
}

export async function deleteMatteDraft(db: Knex, jobId: string): Promise<void> {
  await db('matte_drafts').where({ job_id: jobId }).delete();
}

export interface ListFilter {
  userId: string;
  page: number;
  perPage: number;
  tool?: JobName;
  status?: JobStatus;
  /** Projects: succeeded jobs whose files still exist. */
  projectsOnly?: boolean;
}

/** A page of the user's jobs, newest first, plus the total count. */
export async function listForUser(db: Knex, f: ListFilter): Promise<{ rows: JobRow[]; total: number }> {
  const base = db('image_jobs').where({ user_id: f.userId });
  if (f.tool) base.andWhere({ tool: f.tool });
  if (f.status) base.andWhere({ status: f.status });
  if (f.projectsOnly) base.andWhere({ status: 'succeeded' }).whereNull('deleted_at').whereNull('expired_at');
  return newestFirstPage<JobRow>(base, f.page, f.perPage);
}

/** Open jobs not touched for `idleSeconds` (the reconciler checks each against the queue). */
export async function listStale(db: Knex, idleSeconds: number, limit: number): Promise<JobRow[]> {
  return db('image_jobs')
    .whereIn('status', OPEN)
    .andWhere('updated_at', '<', db.raw(`now() - make_interval(secs => ?)`, [idleSeconds]))
    .orderBy('created_at')
    .limit(limit);
}

/** Finished jobs older than the retention period whose files were not removed yet. */
export async function listExpired(db: Knex, retentionDays: number, limit: number): Promise<JobRow[]> {
  return db('image_jobs')
    .whereNotNull('finished_at')
    .whereNull('expired_at')
    .whereNull('deleted_at')
    .andWhere('finished_at', '<', db.raw(`now() - make_interval(days => ?)`, [retentionDays]))
    .orderBy('finished_at')
    .limit(limit);
}

/** Age in seconds of the oldest queued job (0 when none). */
export async function oldestQueuedAgeSeconds(db: Knex): Promise<number> {
  const row = await db('image_jobs')
    .where({ status: 'queued' })
    .first(db.raw('extract(epoch from now() - min(created_at)) as age'));
  return Number((row as { age: string | null } | undefined)?.age ?? 0);
}

/** What a finished job took, for time-left estimates. */
export interface RecentRun {
  params: Record<string, unknown>;
  input_width: number | null;
  input_height: number | null;
  ms: number;
}

/** The tool's latest successes with their run time (started to finished), newest first. */
export async function recentRuns(db: Knex, tool: JobName, limit: number): Promise<RecentRun[]> {
  const rows = (await db('image_jobs')
    .where({ tool, status: 'succeeded' })
    .whereNotNull('started_at')
    .whereNotNull('finished_at')
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .select(
      'params',
      'input_width',
      'input_height',
      db.raw('extract(epoch from finished_at - started_at) * 1000 as ms'),
    )) as (Omit<RecentRun, 'ms'> & { ms: string })[];
  return rows.map((r) => ({ ...r, ms: Number(r.ms) }));
}

/** The user's jobs still queued or running (their place in the fair-share order, fair-priority.ts). */
export async function countOpenForUser(db: Knex, userId: string): Promise<number> {
  const row = await db('image_jobs')
    .where({ user_id: userId })
    .whereIn('status', OPEN)
    .count<{ count: string }[]>('* as count')
    .first();
  return Number(row?.count ?? 0);
}
