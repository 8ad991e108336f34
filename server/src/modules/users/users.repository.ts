import type { Knex } from 'knex';

/** A users row as stored (balance in integer tenths, as a string from pg's bigint). */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  surname: string;
  phone: string;
  phone_e164: string | null;
  password_hash: string;
  email_verified_at: Date | null;
  country_id: number | null;
  city: string;
  address: string;
  post_code: string;
  avatar_url: string | null;
  balance_tenths: string;
  role: string;
  /** The language code the customer last used (emails are written in it); null: the default language. */
  lang: string | null;
  disabled_at: Date | null;
  session_epoch: number;
  created_at: Date;
  updated_at: Date;
}

/** The columns a registration fills in; the rest take their defaults. */
export type NewUser = Pick<UserRow, 'email' | 'name' | 'surname' | 'phone' | 'phone_e164' | 'password_hash' | 'lang'>;

/** The columns PUT /api/user/profile may change (never email, balance or role). */
export type ProfileFields = Pick<
  UserRow,
  'name' | 'surname' | 'phone' | 'phone_e164' | 'country_id' | 'city' | 'address' | 'post_code'
>;

/** Postgres unique_violation, raised by users_email_lower_unique when an email is taken in any letter case. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

/** A users row without the password hash: what a request handler may see of its user. */
export type SessionUser = Omit<UserRow, 'password_hash'>;

/** Every column but the password hash: what a request handler may see of its user. */
const SESSION_USER_COLUMNS = [
  'id',
  'email',
  'name',
  'surname',
  'phone',
  'phone_e164',
  'email_verified_at',
  'country_id',
  'city',
  'address',
  'post_code',
  'avatar_url',
  'balance_tenths',
  'role',
  'lang',
  'disabled_at',
  'session_epoch',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UserRow)[];

/** The per-request read, as a named prepared statement: Postgres parses and plans it once per connection. */
const SESSION_USER_STATEMENT = {
  name: 'session_user_by_id',
  text: `select ${SESSION_USER_COLUMNS.join(', ')} from users where id = $1`,
};

/** The few methods of a pooled pg connection used here (knex hands out node-postgres clients). */
interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * The user a session names, without the password hash, in one indexed read. Signed-in requests get it through
 * the session user cache (session-user-cache.ts), which reads here on a miss and whenever its change notices
 * are not arriving. It is the hottest query of the API, so it skips knex's query builder and runs as a prepared statement on a
 * connection from knex's own pool (measured: about half of knex's cost per call in Node, and no parse or plan
 * per call in Postgres).
 */
export async function findSessionUser(db: Knex, id: string): Promise<SessionUser | null> {
  const connection = (await db.client.acquireConnection()) as PgConnection;
  try {
    const { rows } = await connection.query({ ...SESSION_USER_STATEMENT, values: [id] });
    return (rows[0] as SessionUser | undefined) ?? null;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

export async function findById(db: Knex, id: string): Promise<UserRow | null> {
  return ((await db('users').where({ id }).first()) as UserRow | undefined) ?? null;
}

/** Finds a user by email whatever its letter case (the unique index is on lower(email)). */
export async function findByEmail(db: Knex, email: string): Promise<UserRow | null> {
  return ((await db('users').whereRaw('lower(email) = lower(?)', [email]).first()) as UserRow | undefined) ?? null;
}

/** Inserts a user; throws a unique violation (see isUniqueViolation) when the email is taken. */
export async function insertUser(db: Knex, user: NewUser): Promise<UserRow> {
  const [row] = await db('users').insert(user).returning('*');
  return row as UserRow;
}

/** Locks the user's row for the rest of the transaction (per-user limits counted under it cannot race). */
export async function lockUser(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('users').where({ id }).forUpdate().first('id');
}

/** Remembers the language the customer uses; no write when it is already the stored one. */
export async function updateLang(db: Knex, id: string, lang: string): Promise<void> {
  await db('users').where({ id }).whereRaw('lang is distinct from ?', [lang]).update({ lang });
}

export async function updateProfile(db: Knex, id: string, fields: ProfileFields): Promise<void> {
  await db('users')
    .where({ id })
    .update({ ...fields, updated_at: db.fn.now() });
}

/** Sets a new password hash and bumps the session epoch, so sessions signed in before it end. */
export async function updatePassword(db: Knex, id: string, passwordHash: string): Promise<number> {
  const [row] = await db('users')
    .where({ id })
    .update({ password_hash: passwordHash, session_epoch: db.raw('session_epoch + 1'), updated_at: db.fn.now() })
    .returning('session_epoch');
  return Number((row as { session_epoch: number }).session_epoch);
}

/** Marks the email verified once; returns false when it already was. */
export async function markEmailVerified(db: Knex, id: string): Promise<boolean> {
  const count = await db('users')
    .where({ id })
    .whereNull('email_verified_at')
    .update({ email_verified_at: db.fn.now(), updated_at: db.fn.now() });
  return count > 0;
}
