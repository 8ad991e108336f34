import { z } from 'zod';
import { JOB_STATUSES, type JobStatus } from './jobs';
import { JOB_NAMES, type JobName } from './tools';
import { DEPOSIT_STATUSES, type DepositStatus } from './payments';
import type { LedgerEntryView } from './ledger';
import type { ApiKeyView } from './api-keys';

/**
 * The operator console's API (`/api/admin/*`, server/src/modules/admin): its request schemas and the
 * shapes of its replies, which the /admin pages read. docs/operations.md#operator-console lists the routes.
 */

/** How long a confirmed password opens the console's money and account changes. */
export const ADMIN_REAUTH_MS = 10 * 60 * 1000;
/** Rows per page of the console's lists. */
export const ADMIN_PAGE_SIZE = 50;
/** The largest single adjustment, in tokens (either way). */
export const ADMIN_ADJUST_MAX_TOKENS = 100_000;

export const ADMIN_MESSAGES = {
  reauthRequired: 'Please confirm your password to continue.',
  wrongPassword: 'The password is not correct.',
  belowZero: 'A deduction cannot take the balance below zero.',
  notSucceeded: 'Only a succeeded job can be refunded this way.',
  alreadyRefunded: 'This job has already been refunded.',
  alreadyVerified: 'This email address is already verified.',
  notYourself: 'You cannot do this to your own account.',
  reasonRequired: 'Please give a reason.',
  tokenSteps: 'Use steps of 0.1 tokens.',
  amountZero: 'The amount cannot be zero.',
} as const;

const intFromText = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
const page = intFromText(z.number().int().min(1).max(100_000)).default(1);
const blankAsMissing = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());
const reason = z.string({ error: ADMIN_MESSAGES.reasonRequired }).trim().min(3, ADMIN_MESSAGES.reasonRequired).max(500);

export const adminConfirmPasswordSchema = z.object({ password: z.string().min(1).max(200) });

/** `tokens`: positive grants, negative deducts, exact to 0.1, never zero. */
export const adminAdjustSchema = z.object({
  tokens: z
    .number()
    .refine((n) => Number.isFinite(n) && Math.abs(Math.round(n * 10) - n * 10) < 1e-6, ADMIN_MESSAGES.tokenSteps)
    .refine((n) => Math.round(n * 10) !== 0, ADMIN_MESSAGES.amountZero)
    .refine((n) => Math.abs(n) <= ADMIN_ADJUST_MAX_TOKENS, `At most ${ADMIN_ADJUST_MAX_TOKENS} tokens at a time.`),
  reason,
});
export type AdminAdjustInput = z.infer<typeof adminAdjustSchema>;

export const adminRefundSchema = z.object({ reason });

export const adminJobsQuerySchema = z.object({
  page,
  /** A user id, or text of the user's email. */
  user: blankAsMissing(z.string().max(200)),
  tool: blankAsMissing(z.enum(JOB_NAMES)),
  status: blankAsMissing(z.enum(JOB_STATUSES)),
  /** ISO dates or times; `to` is exclusive. */
  from: blankAsMissing(z.coerce.date()),
  to: blankAsMissing(z.coerce.date()),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuerySchema>;

export const adminDepositsQuerySchema = z.object({
  page,
  /** A user id, or text of the user's email. */
  user: blankAsMissing(z.string().max(200)),
  status: blankAsMissing(z.enum(DEPOSIT_STATUSES)),
  from: blankAsMissing(z.coerce.date()),
  to: blankAsMissing(z.coerce.date()),
});

export const adminUsersQuerySchema = z.object({ page, q: blankAsMissing(z.string().max(200)) });

export const adminAuditQuerySchema = z.object({
  page,
  actor: blankAsMissing(z.string().max(200)),
  action: blankAsMissing(z.string().max(100)),
  target: blankAsMissing(z.string().max(200)),
});

export interface AdminPage<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
  last_page: number;
}

/** GET /api/admin/session */
export interface AdminSessionView {
  user: { id: string; email: string; name: string };
  /** Until when money and account changes are open without asking the password again; null: ask first. */
  confirmed_until: string | null;
}

export interface AdminQueueView {
  tool: JobName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Seconds the oldest waiting job has waited; null when none waits. */
  oldest_waiting_s: number | null;
}

export interface AdminWorkerView {
  id: string;
  host: string;
  tools: JobName[];
  provider: string;
  providers: Partial<Record<JobName, string>>;
  concurrency: number;
  version: string;
  /** Ids of the jobs it runs now, and jobs finished since it started, when the worker reports them. */
  current_jobs: string[] | null;
  jobs_done: number | null;
  last_seen: string;
  /** `lost`: silent for 3 heartbeats or more (shown for an hour, then forgotten). */
  state: 'live' | 'lost';
}

/** GET /api/admin/overview */
export interface AdminOverview {
  queues: AdminQueueView[];
  workers: AdminWorkerView[];
  /** 24 hours, oldest first; `hour` is the start of the hour (ISO). */
  jobs_per_hour: Array<{ hour: string } & Record<JobStatus, number>>;
  /** 30 days, oldest first: paid deposits per day, with the tokens credited and the amount per currency. */
  deposits_per_day: Array<{ day: string; count: number; tokens: number; amounts: Record<string, number> }>;
  generated_at: string;
}

export interface AdminUserSummary {
  id: string;
  email: string;
  name: string;
  surname: string;
  role: 'customer' | 'admin';
  balance: number;
  email_verified: boolean;
  disabled: boolean;
  created_at: string;
}

export interface AdminJobSummary {
  id: string;
  user_id: string;
  user_email: string;
  tool: JobName;
  status: JobStatus;
  cost: number;
  refunded: boolean;
  created_at: string;
  finished_at: string | null;
  batch_id: string | null;
}

export interface AdminLedgerRow extends LedgerEntryView {
  idempotency_key: string;
  reason: string | null;
  metadata: Record<string, unknown>;
}

/** GET /api/admin/jobs/{id} */
export interface AdminJobDetail extends AdminJobSummary {
  params: Record<string, unknown>;
  progress: number;
  stage: string | null;
  error: string | null;
  /** The worker's own reason (operators only). */
  error_detail: string | null;
  input: { name: string | null; width: number | null; height: number | null } | null;
  result: unknown;
  timings: {
    queued_s: number | null;
    running_s: number | null;
    total_s: number | null;
    /** The worker's milliseconds per stage (download, prepare, infer, encode, upload, ...). */
    stages_ms: Record<string, number> | null;
  };
  /** What ran it (cuda, cpu, remote:<model>), from the result. */
  provider: string | null;
  started_at: string | null;
  cancel_requested_at: string | null;
  /** From the queue while BullMQ still holds the job: attempts, the worker, the provider, the last error. */
  queue: {
    state: string;
    attempts_made: number;
    processed_by: string | null;
    failed_reason: string | null;
  } | null;
  ledger: AdminLedgerRow[];
}

export interface AdminDepositRow {
  id: string;
  user_id: string;
  /** In lists of every user's deposits. */
  user_email?: string;
  status: DepositStatus;
  provider: string;
  tokens: number;
  amount: number;
  currency: string;
  invoice_number: string | null;
  stripe_session_id: string | null;
  stripe_payment_intent: string | null;
  refunded: number;
  created_at: string;
  paid_at: string | null;
}

/** GET /api/admin/users/{id} */
export interface AdminUserDetail extends AdminUserSummary {
  phone: string;
  country_id: number | null;
  city: string;
  address: string;
  post_code: string;
  ledger_sum: number;
  ledger: AdminLedgerRow[];
  deposits: AdminDepositRow[];
  jobs: AdminJobSummary[];
  api_keys: ApiKeyView[];
  /** Sessions are not indexed per user: the epoch that "sign out everywhere" moves on. */
  sessions: { epoch: number };
}

export interface AdminAuditRow {
  id: string;
  created_at: string;
  actor: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}
