import type { Knex } from 'knex';
import type { DepositStatus, JobName, JobStatus } from '@imagestudio/contracts';
import type { Deposit } from '../payments';
import type { JobRow } from '../jobs';
import type { UserRow } from '../users';

/** The operator console's reads and its few writes that belong to no other module (audit rows, job flags). */

export type UserListRow = Pick<
  UserRow,
  'id' | 'email' | 'name' | 'surname' | 'role' | 'balance_tenths' | 'email_verified_at' | 'disabled_at' | 'created_at'
>;
const USER_LIST_COLUMNS = [
  'id',
  'email',
  'name',
  'surname',
  'role',
  'balance_tenths',
  'email_verified_at',
  'disabled_at',
  'created_at',
];

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (text: string) => UUID.test(text);

async function paged<Row>(query: Knex.QueryBuilder, order: Knex.QueryBuilder, page: number, perPage: number) {
  const [rows, count] = await Promise.all([
    order.limit(perPage).offset((page - 1) * perPage) as Promise<Row[]>,
    query.clone().clearSelect().clearOrder().count<{ count: string }[]>('* as count').first(),
  ]);
  return { rows, total: Number(count?.count ?? 0) };
}

/** Users whose email, name or surname contains `q` (or whose id it is), newest first. */
export function searchUsers(db: Knex, q: string | undefined, page: number, perPage: number) {
  const query = db('users');
  if (q) {
    const text = q.trim();
    query.where((w) => {
      w.whereILike('email', like(text))
        .orWhereILike('name', like(text))
        .orWhereILike('surname', like(text))
        .orWhereRaw(`(name || ' ' || surname) ilike ?`, [like(text)]);
      if (isUuid(text)) w.orWhere('id', text);
    });
  }
  return paged<UserListRow>(
    query,
    query
      .clone()
      .select(USER_LIST_COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]),
    page,
    perPage,
  );
}

export async function findUser(db: Knex, id: string): Promise<Omit<UserRow, 'password_hash'> | null> {
  if (!isUuid(id)) return null;
  const row = (await db('users').where({ id }).first()) as UserRow | undefined;
  if (!row) return null;
  const { password_hash: _hash, ...rest } = row;
  return rest;
}

export type AdminJobRow = JobRow & { user_email: string };

export interface JobSearch {
  user?: string;
  tool?: JobName;
  status?: JobStatus;
  from?: Date;
  to?: Date;
}

/**
 * What the job and deposit searches share: the user (an id, or text in the email) and a creation-time window on
 * the table joined with `users as u` under `alias`; then the page, newest first.
 */
function searchNewestFirst<T>(
  query: Knex.QueryBuilder,
  alias: 'j' | 'd',
  f: { user?: string; from?: Date; to?: Date },
  page: number,
  perPage: number,
) {
  if (f.user) {
    if (isUuid(f.user)) query.where(`${alias}.user_id`, f.user);
    else query.whereILike('u.email', like(f.user.trim()));
  }
  if (f.from) query.where(`${alias}.created_at`, '>=', f.from);
  if (f.to) query.where(`${alias}.created_at`, '<', f.to);
  return paged<T>(
    query,
    query
      .clone()
      .select(`${alias}.*`, 'u.email as user_email')
      .orderBy([
        { column: `${alias}.created_at`, order: 'desc' },
        { column: `${alias}.id`, order: 'desc' },
      ]),
    page,
    perPage,
  );
}

/** Jobs of every user, newest first, filtered by user (id or email text), tool, status and creation time. */
export function searchJobs(db: Knex, f: JobSearch, page: number, perPage: number) {
  const query = db('image_jobs as j').join('users as u', 'u.id', 'j.user_id');
  if (f.tool) query.where('j.tool', f.tool);
  if (f.status) query.where('j.status', f.status);
  return searchNewestFirst<AdminJobRow>(query, 'j', f, page, perPage);
}

export interface DepositSearch {
  user?: string;
  status?: DepositStatus;
  from?: Date;
  to?: Date;
}

export type AdminDepositRecord = Deposit & { user_email: string };

/** Deposits of every user, newest first, by user (id or email text), status and creation time. */
export function searchDeposits(db: Knex, f: DepositSearch, page: number, perPage: number) {
  const query = db('deposits as d').join('users as u', 'u.id', 'd.user_id');
  if (f.status) query.where('d.status', f.status);
  return searchNewestFirst<AdminDepositRecord>(query, 'd', f, page, perPage);
}

export async function findJob(db: Knex, id: string): Promise<AdminJobRow | null> {
  if (!isUuid(id)) return null;
  const row = await db('image_jobs as j')
    .join('users as u', 'u.id', 'j.user_id')
    .where('j.id', id)
    .first('j.*', 'u.email as user_email');
  return (row as AdminJobRow | undefined) ?? null;
}

/** Marks a finished job refunded (the refund's ledger row is written in the same transaction). */
export async function markJobRefunded(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('image_jobs').where({ id }).update({ refunded: true, updated_at: trx.fn.now() });
}

/** The ledger rows that name a job (its charge, its refund). */
export function ledgerForJob(db: Knex, jobId: string) {
  return db('token_ledger')
    .where((w) => w.whereRaw(`metadata->>'job_id' = ?`, [jobId]).orWhereLike('idempotency_key', `job:${jobId}:%`))
    .orderBy('id');
}

/** Bumps the session epoch: every session of the user stops authenticating at its next request. */
export async function endSessions(db: Knex, userId: string): Promise<number> {
  const [row] = await db('users')
    .where({ id: userId })
    .update({ session_epoch: db.raw('session_epoch + 1'), updated_at: db.fn.now() })
    .returning('session_epoch');
  return Number((row as { session_epoch: number }).session_epoch);
}

export interface AuditInsert {
  operator: string;
  actor_id: string | null;
  command: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export async function insertAudit(db: Knex, row: AuditInsert): Promise<void> {
  await db('operator_audit_log').insert({ ...row, details: JSON.stringify(row.details) });
}

export interface AuditRow extends AuditInsert {
  id: string;
  created_at: Date;
}

/** The audit log newest first; `actor` matches the operator's name or account id, `action` a command prefix. */
export function listAudit(
  db: Knex,
  f: { actor?: string; action?: string; target?: string },
  page: number,
  perPage: number,
) {
  const query = db('operator_audit_log');
  if (f.actor) {
    const actor = f.actor.trim();
    query.where((w) => {
      w.whereILike('operator', like(actor));
      if (isUuid(actor)) w.orWhere('actor_id', actor);
    });
  }
  if (f.action) query.whereLike('command', `${f.action.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (f.target) query.where('target', f.target.trim());
  return paged<AuditRow>(query, query.clone().select('*').orderBy('id', 'desc'), page, perPage);
}

/** Jobs created in the last 24 hours, per hour and status. */
export async function jobsPerHour(db: Knex): Promise<Array<{ hour: Date; status: JobStatus; count: string }>> {
  return db('image_jobs')
    .select(db.raw(`date_trunc('hour', created_at) as hour`), 'status')
    .count('* as count')
    .where('created_at', '>=', db.raw(`date_trunc('hour', now()) - interval '23 hours'`))
    .groupByRaw('1, 2') as never;
}

/** Paid deposits of the last 30 days, per day (UTC) and currency. */
export async function depositsPerDay(
  db: Knex,
): Promise<Array<{ day: string; currency: string; count: string; tenths: string; minor: string }>> {
  return db('deposits')
    .select(db.raw(`to_char(date_trunc('day', completed_at at time zone 'UTC'), 'YYYY-MM-DD') as day`), 'currency')
    .count('* as count')
    .sum('tokens_tenths as tenths')
    .sum('amount_minor as minor')
    .where('status', 'Success')
    .where('completed_at', '>=', db.raw(`date_trunc('day', now() at time zone 'UTC') - interval '29 days'`))
    .groupByRaw('1, 2') as never;
}

/** Per tool: open jobs by status and when the oldest queued one was created (Postgres is the truth). */
export async function openJobsPerTool(
  db: Knex,
): Promise<Array<{ tool: JobName; status: JobStatus; count: string; oldest: Date }>> {
  return db('image_jobs')
    .select('tool', 'status')
    .count('* as count')
    .min('created_at as oldest')
    .whereIn('status', ['queued', 'running'])
    .groupBy('tool', 'status') as never;
}
