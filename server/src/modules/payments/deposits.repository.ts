import type { Knex } from 'knex';
import type { DepositStatus } from '@imagestudio/contracts';
import { newestFirstPage } from '../../lib/db';

export type { DepositStatus } from '@imagestudio/contracts';
export type PaymentProvider = 'stripe' | 'test';

/** Billing details as entered at checkout (the account email replaces the form's). */
export interface BillingSnapshot {
  name: string;
  surname: string;
  email: string;
  phone: string;
  /** The phone in international (E.164) form when it could be read, for receipts; absent on old rows. */
  phone_e164?: string | null;
  country_id: number;
  country: string;
  city: string;
  address: string;
  post_code: string;
}

/** A deposits row; bigint columns arrive from pg as strings and are converted by toDeposit. */
export interface Deposit {
  id: string;
  user_id: string;
  status: DepositStatus;
  provider: PaymentProvider;
  tokens_tenths: number;
  pack_id: number | null;
  pack_title: string | null;
  currency: string;
  net_minor: number;
  vat_minor: number;
  amount_minor: number;
  vat_percent: string;
  payment_method_id: number | null;
  payment_method_code: string | null;
  payment_method_title: string | null;
  billing: BillingSnapshot;
  stripe_session_id: string | null;
  stripe_payment_intent_id: string | null;
  checkout_url: string | null;
  error: string | null;
  refunded_minor: number;
  reversed_tenths: number;
  completed_at: Date | null;
  checked_at: Date | null;
  /** INV-<year>-<6 digits>, given when the deposit is paid. */
  invoice_number: string | null;
  /** Language code the customer checked out in (emails are written in it). */
  lang: string;
  created_at: Date;
  updated_at: Date;
}

export type NewDeposit = Pick<
  Deposit,
  | 'user_id'
  | 'provider'
  | 'tokens_tenths'
  | 'pack_id'
  | 'pack_title'
  | 'currency'
  | 'net_minor'
  | 'vat_minor'
  | 'amount_minor'
  | 'vat_percent'
  | 'payment_method_id'
  | 'payment_method_code'
  | 'payment_method_title'
  | 'billing'
  | 'lang'
>;

export type DepositPatch = Partial<
  Pick<
    Deposit,
    | 'status'
    | 'stripe_session_id'
    | 'stripe_payment_intent_id'
    | 'checkout_url'
    | 'error'
    | 'refunded_minor'
    | 'reversed_tenths'
    | 'completed_at'
    | 'invoice_number'
  >
>;

const BIGINTS = [
  'tokens_tenths',
  'net_minor',
  'vat_minor',
  'amount_minor',
  'refunded_minor',
  'reversed_tenths',
] as const;

function toDeposit(row: Record<string, unknown> | undefined): Deposit | null {
  if (!row) return null;
  const out = { ...row } as Record<string, unknown>;
  for (const key of BIGINTS) out[key] = Number(row[key]);
  return out as unknown as Deposit;
}

export async function insertDeposit(db: Knex, deposit: NewDeposit): Promise<Deposit> {
  const [row] = await db('deposits')
    .insert({ ...deposit, billing: JSON.stringify(deposit.billing) })
    .returning('*');
  return toDeposit(row)!;
}

export async function findDeposit(db: Knex, id: string): Promise<Deposit | null> {
  return toDeposit(await db('deposits').where({ id }).first());
}

/** The owner's deposit, or null for another user's or an unknown id (both answer 404). */
export async function findUserDeposit(db: Knex, userId: string, id: string): Promise<Deposit | null> {
  return toDeposit(await db('deposits').where({ id, user_id: userId }).first());
}

/** Locks the deposit row until the transaction ends, so fulfilment paths serialise per deposit. */
export async function lockDeposit(trx: Knex.Transaction, id: string): Promise<Deposit | null> {
  return toDeposit(await trx('deposits').where({ id }).forUpdate().first());
}

export async function lockDepositByPaymentIntent(
  trx: Knex.Transaction,
  paymentIntentId: string,
): Promise<Deposit | null> {
  return toDeposit(await trx('deposits').where({ stripe_payment_intent_id: paymentIntentId }).forUpdate().first());
}

export async function updateDeposit(db: Knex, id: string, patch: DepositPatch): Promise<void> {
  await db('deposits')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() });
}

/** A page of the user's deposits, newest first, with the total count. */
export async function listUserDeposits(
  db: Knex,
  userId: string,
  page: number,
  perPage: number,
): Promise<{ rows: Deposit[]; total: number }> {
  const { rows, total } = await newestFirstPage<Record<string, unknown>>(
    db('deposits').where({ user_id: userId }),
    page,
    perPage,
  );
  return { rows: rows.map((r) => toDeposit(r)!), total };
}

/** Pending or Processing deposits created before `before`: never checked first, then least recently checked. */
export async function listOpenDeposits(db: Knex, before: Date, limit: number): Promise<Deposit[]> {
  const rows = await db('deposits')
    .whereIn('status', ['Pending', 'Processing'])
    .where('created_at', '<', before)
    .orderByRaw('checked_at asc nulls first, created_at asc')
    .limit(limit);
  return rows.map((r: Record<string, unknown>) => toDeposit(r)!);
}

/** Notes that the reconciler looked at these deposits now. */
export async function markChecked(db: Knex, ids: string[]): Promise<void> {
  if (ids.length > 0) await db('deposits').whereIn('id', ids).update({ checked_at: db.fn.now() });
}

/** Records a webhook event id; false when it was already recorded (a redelivery). */
export async function recordEvent(
  trx: Knex.Transaction,
  event: { id: string; type: string; deposit_id: string | null; outcome: string },
): Promise<boolean> {
  const rows = await trx('stripe_events').insert(event).onConflict('id').ignore().returning('id');
  return rows.length > 0;
}

export async function countEvents(db: Knex, depositId: string): Promise<number> {
  const row = await db('stripe_events')
    .where({ deposit_id: depositId })
    .count<{ count: string }[]>('* as count')
    .first();
  return Number(row?.count ?? 0);
}

/**
 * The next number of `seller`'s invoice sequence for `year` (1, 2, ...). Run inside the transaction that
 * marks the deposit paid: the row lock of the upsert orders concurrent payments, and a rollback gives
 * the number back, so the sequence has no gaps.
 */
export async function nextInvoiceSequence(trx: Knex.Transaction, seller: string, year: number): Promise<number> {
  const { rows } = await trx.raw<{ rows: Array<{ last_number: number }> }>(
    `insert into invoice_sequences (seller, year, last_number) values (?, ?, 1)
     on conflict (seller, year) do update set last_number = invoice_sequences.last_number + 1
     returning last_number`,
    [seller, year],
  );
  return Number(rows[0]!.last_number);
}
