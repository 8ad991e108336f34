import type { Knex } from 'knex';

export interface OperatorUserRow {
  id: string;
  email: string;
  name: string;
  surname: string;
  balance_tenths: string;
  email_verified_at: Date | null;
  disabled_at: Date | null;
  role: string;
  created_at: Date;
}

const USER_COLUMNS = [
  'id',
  'email',
  'name',
  'surname',
  'balance_tenths',
  'email_verified_at',
  'disabled_at',
  'role',
  'created_at',
];

/** Newest users first, optionally those whose email or name contains `search`. */
export async function listUsers(db: Knex, search: string | undefined, limit: number): Promise<OperatorUserRow[]> {
  const query = db('users').select(USER_COLUMNS).orderBy('created_at', 'desc').limit(limit);
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((q) => q.whereILike('email', like).orWhereILike('name', like).orWhereILike('surname', like));
  }
  return query;
}

export async function findUserByEmail(db: Knex, email: string): Promise<OperatorUserRow | null> {
  return (
    ((await db('users').whereRaw('lower(email) = lower(?)', [email]).first(USER_COLUMNS)) as
      OperatorUserRow | undefined) ?? null
  );
}

/** Disables (or re-enables) an account; disabling also ends its sessions by bumping the session epoch. */
export async function setUserDisabled(db: Knex, userId: string, disabled: boolean): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update(
      disabled
        ? { disabled_at: db.fn.now(), session_epoch: db.raw('session_epoch + 1'), updated_at: db.fn.now() }
        : { disabled_at: null, updated_at: db.fn.now() },
    );
}

/** Sets a user's role (`customer` or `admin`); only the operator CLI calls this. */
export async function setUserRole(db: Knex, userId: string, role: 'customer' | 'admin'): Promise<void> {
  await db('users').where({ id: userId }).update({ role, updated_at: db.fn.now() });
}

/** Appends one audit row. */
export async function insertAudit(
  db: Knex,
  row: { operator: string; command: string; details: Record<string, unknown> },
): Promise<void> {
  await db('operator_audit_log').insert({ ...row, details: JSON.stringify(row.details) });
}

export async function listAudit(
  db: Knex,
  limit: number,
): Promise<Array<{ id: string; operator: string; command: string; details: unknown; created_at: Date }>> {
  return db('operator_audit_log').select('*').orderBy('id', 'desc').limit(limit);
}
