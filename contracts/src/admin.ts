import { z } from 'zod';
import { listPageSchema } from './list-page';
import { JOB_STATUSES, type JobStatus } from './jobs';
import { JOB_NAMES } from './tools';
import { DEPOSIT_STATUSES } from './payments';
import { ledgerEntrySchema } from './ledger';
import { apiKeySchema } from './api-keys';

/**
 * The operator console's API (`/api/admin/*`, server/src/modules/admin): its request schemas and the
 * schemas of its replies, which the /admin pages read as the types inferred from them.
 * docs/operations.md#operator-console lists the routes.
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

/** One page of a console list (ADMIN_PAGE_SIZE rows, newest first) of `item`s (listPageSchema). */
export type AdminPage<T> = Omit<z.infer<ReturnType<typeof listPageSchema>>, 'items'> & { items: T[] };

/** GET /api/admin/session */
export const adminSessionViewSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().describe('First name and surname') }),
  confirmed_until: z
    .string()
    .nullable()
    .describe('Until when money and account changes are open without asking the password again; null: ask first'),
});
export type AdminSessionView = z.infer<typeof adminSessionViewSchema>;

/** POST /api/admin/confirm-password */
export const adminConfirmedSchema = z.object({
  confirmed_until: z.string().describe('Until when money and account changes are open without the password'),
});

export const adminQueueViewSchema = z.object({
  tool: z.enum(JOB_NAMES),
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int().describe('Jobs BullMQ holds as failed, cancelled ones left out'),
  cancelled: z.number().int().describe('Jobs BullMQ holds as failed because they were cancelled'),
  oldest_waiting_s: z
    .number()
    .int()
    .nullable()
    .describe('Seconds the oldest waiting job has waited; null when none waits'),
});
export type AdminQueueView = z.infer<typeof adminQueueViewSchema>;

export const adminWorkerViewSchema = z.object({
  id: z.string(),
  host: z.string(),
  tools: z.array(z.enum(JOB_NAMES)),
  provider: z.string(),
  providers: z.partialRecord(z.enum(JOB_NAMES), z.string()),
  concurrency: z.number().int(),
  version: z.string(),
  current_jobs: z
    .array(z.string())
    .nullable()
    .describe('Ids of the jobs it runs now; null when the worker does not report them'),
  jobs_done: z
    .number()
    .int()
    .nullable()
    .describe('Jobs finished since it started; null when the worker does not report them'),
  last_seen: z.string(),
  state: z.enum(['live', 'lost']).describe('lost: silent for 3 heartbeats or more (shown for an hour, then forgotten)'),
});
export type AdminWorkerView = z.infer<typeof adminWorkerViewSchema>;

/** A count per job status. */
const statusCounts = Object.fromEntries(JOB_STATUSES.map((status) => [status, z.number().int()])) as Record<
  JobStatus,
  z.ZodNumber
>;

/** GET /api/admin/overview */
export const adminOverviewSchema = z.object({
  queues: z.array(adminQueueViewSchema),
  workers: z.array(adminWorkerViewSchema),
  jobs_per_hour: z
    .array(z.object({ hour: z.string().describe('The start of the hour (ISO)'), ...statusCounts }))
    .describe('24 hours, oldest first: jobs created per status'),
  deposits_per_day: z
    .array(
      z.object({
        day: z.string().describe('YYYY-MM-DD (UTC)'),
        count: z.number().int(),
        tokens: z.number(),
        amounts: z.record(z.string(), z.number()).describe('Per currency, the amount in its major units'),
      }),
    )
    .describe('30 days, oldest first: paid deposits per day, with the tokens credited and the amount per currency'),
  generated_at: z.string(),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const adminUserSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  role: z.enum(['customer', 'admin']),
  balance: z.number().describe('Tokens (exact to 0.1)'),
  email_verified: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminJobSummarySchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_email: z.string(),
  tool: z.enum(JOB_NAMES),
  status: z.enum(JOB_STATUSES),
  cost: z.number().describe('Tokens charged (exact to 0.1)'),
  refunded: z.boolean(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  batch_id: z.string().nullable(),
});
export type AdminJobSummary = z.infer<typeof adminJobSummarySchema>;

export const adminLedgerRowSchema = ledgerEntrySchema.extend({
  idempotency_key: z.string(),
  reason: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type AdminLedgerRow = z.infer<typeof adminLedgerRowSchema>;

/** GET /api/admin/jobs/{id} */
export const adminJobDetailSchema = adminJobSummarySchema.extend({
  params: z.record(z.string(), z.unknown()),
  progress: z.number(),
  stage: z.string().nullable(),
  error: z.string().nullable(),
  error_detail: z.string().nullable().describe("The worker's own reason (operators only)"),
  input: z
    .object({ name: z.string().nullable(), width: z.number().int().nullable(), height: z.number().int().nullable() })
    .nullable(),
  result: z.unknown().describe("The worker's result as stored (files, provider, timings); null until it succeeds"),
  timings: z.object({
    queued_s: z.number().nullable(),
    running_s: z.number().nullable(),
    total_s: z.number().nullable(),
    stages_ms: z
      .record(z.string(), z.number())
      .nullable()
      .describe("The worker's milliseconds per stage (download, prepare, infer, encode, upload, ...)"),
  }),
  provider: z.string().nullable().describe('What ran it (cuda, cpu, remote:<model>), from the result'),
  started_at: z.string().nullable(),
  cancel_requested_at: z.string().nullable(),
  queue: z
    .object({
      state: z.string(),
      attempts_made: z.number().int(),
      processed_by: z.string().nullable(),
      failed_reason: z.string().nullable(),
    })
    .nullable()
    .describe('From the queue while BullMQ still holds the job: attempts, the worker, the last error'),
  ledger: z.array(adminLedgerRowSchema),
});
export type AdminJobDetail = z.infer<typeof adminJobDetailSchema>;

/** POST /api/admin/jobs/{id}/refund */
export const adminRefundResultSchema = z.object({
  job_id: z.string(),
  user_id: z.string(),
  tokens: z.number().describe('Tokens given back'),
  balance: z.number().describe("The user's balance afterwards"),
});

export const adminDepositRowSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_email: z.string().optional().describe("In lists of every user's deposits"),
  status: z.enum(DEPOSIT_STATUSES),
  provider: z.string(),
  tokens: z.number(),
  amount: z.number().describe("VAT included, in the currency's major units"),
  currency: z.string(),
  invoice_number: z.string().nullable(),
  stripe_session_id: z.string().nullable(),
  stripe_payment_intent: z.string().nullable(),
  refunded: z.number().describe("The amount refunded, in the currency's major units (0: none)"),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});
export type AdminDepositRow = z.infer<typeof adminDepositRowSchema>;

/** GET /api/admin/users/{id} */
export const adminUserDetailSchema = adminUserSummarySchema.extend({
  phone: z.string(),
  country_id: z.number().int().nullable(),
  city: z.string(),
  address: z.string(),
  post_code: z.string(),
  ledger_sum: z.number().describe('The sum of the ledger in tokens (equals the balance unless something is wrong)'),
  ledger: z.array(adminLedgerRowSchema),
  deposits: z.array(adminDepositRowSchema),
  jobs: z.array(adminJobSummarySchema),
  api_keys: z.array(apiKeySchema),
  sessions: z
    .object({ epoch: z.number().int() })
    .describe('Sessions are not indexed per user: the epoch that "sign out everywhere" moves on'),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** POST /api/admin/users/{id}/adjust */
export const adminAdjustResultSchema = z.object({
  applied: z.boolean().describe('false when the Idempotency-Key was used before (nothing changed)'),
  before: z.number().describe('The balance before, in tokens'),
  balance: z.number().describe('The balance afterwards, in tokens'),
  entry: adminLedgerRowSchema.nullable(),
});

/** POST /api/admin/users/{id}/disable and /enable: the account's state afterwards. */
export const adminDisabledSchema = z.object({ disabled: z.boolean() });

export const adminAuditRowSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  actor: z.string().describe("The operator's email"),
  actor_id: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AdminAuditRow = z.infer<typeof adminAuditRowSchema>;
