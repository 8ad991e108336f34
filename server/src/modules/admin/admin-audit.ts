import type { Request } from 'express';
import type { AdminAuditRow } from '@imagestudio/contracts';
import type { AdminDeps } from './admin.deps';
import * as repo from './admin.repository';

/**
 * Writes one row of the operator audit log (the table the CLI writes too) for a console request: the
 * operator (email and account id), the action (`users.adjust`, `jobs.view`...), its target (`user:<id>`,
 * `job:<id>`), the address and the details (before/after of a change). Changes and views of a customer's
 * data are both recorded; a row is written only once the action has succeeded.
 */
export async function audit(
  ctx: AdminDeps,
  req: Request,
  action: string,
  target: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  const actor = req.user!;
  await repo.insertAudit(ctx.db, {
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
