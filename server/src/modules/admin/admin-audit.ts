import type { Request } from 'express';
import type { Knex } from 'knex';
import type { AdminAuditRow } from '@imagestudio/contracts';
import type { AdminDeps } from './admin.deps';
import * as repo from './admin.repository';

/**
 * Writes one row of the operator audit log (the table the CLI writes too) for a console request: the
 * operator (email and account id), the action (`users.adjust`, `jobs.view`...), its target (`user:<id>`,
 * `job:<id>`), the address and the details (before/after of a change). Changes and views of a customer's
 * data are both recorded; a row is written only once the action has succeeded. For a view, or an action with
 * effects outside the database (a queue, a mail), after it; a change of rows writes it in its own transaction
 * (auditWriter), so the change and its row commit together or not at all.
 */
export function audit(
  ctx: AdminDeps,
  req: Request,
  action: string,
  target: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  return writeAudit(ctx, ctx.db, req, action, target, details);
}

/** Writes a change's audit row through `db`: the change's transaction. */
export type AuditWrite = (db: Knex, target: string | null, details?: Record<string, unknown>) => Promise<void>;

/** The audit writer of one console action, handed to the service that opens the change's transaction. */
export function auditWriter(ctx: AdminDeps, req: Request, action: string): AuditWrite {
  return (db, target, details = {}) => writeAudit(ctx, db, req, action, target, details);
}

async function writeAudit(
  ctx: AdminDeps,
  db: Knex,
  req: Request,
  action: string,
  target: string | null,
  details: Record<string, unknown>,
): Promise<void> {
  const actor = req.user!;
  await repo.insertAudit(db, {
    operator: actor.email,
    actor_id: actor.id,
    command: action,
    target,
    ip: req.ip ?? null,
    details,
  });
  ctx.logger.info({ component: 'admin', operator: actor.email, action, target, details }, 'operator action');
}

export function presentAudit(row: repo.AuditRow): AdminAuditRow {
  return {
    id: String(row.id),
    created_at: row.created_at.toISOString(),
    actor: row.operator,
    actor_id: row.actor_id,
    action: row.command,
    target: row.target,
    ip: row.ip,
    details: (row.details ?? {}) as Record<string, unknown>,
  };
}
