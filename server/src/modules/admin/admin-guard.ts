import type { Request, RequestHandler } from 'express';
import { ADMIN_MESSAGES, ADMIN_REAUTH_MS } from '@imagestudio/contracts';
import type { AdminDeps } from './admin.deps';
import { AppError, validationError } from '../../lib/errors';
import { consumeOrThrow, refund } from '../../http/rate-limits';
import { usersRepository as users } from '../users';

declare module 'express-session' {
  interface SessionData {
    /** Epoch ms of the operator's last password confirmation (POST /api/admin/confirm-password). */
    adminConfirmedAt?: number;
  }
}

export { requireAdmin } from '../../http/route-guards';

/** Until when the session's password confirmation opens money and account changes; null when it does not. */
export function confirmedUntil(req: Request, now = Date.now()): Date | null {
  const at = req.session?.adminConfirmedAt;
  return at !== undefined && now - at < ADMIN_REAUTH_MS ? new Date(at + ADMIN_REAUTH_MS) : null;
}

/** 403 `reauth_required` unless the operator confirmed the password within ADMIN_REAUTH_MS. */
export const requireReauth: RequestHandler = (req, _res, next) => {
  next(confirmedUntil(req) ? undefined : new AppError('reauth_required', ADMIN_MESSAGES.reauthRequired));
};

/**
 * Checks the operator's password and marks the session confirmed. Every attempt counts against the login
 * limits (the consecutive count of this account and address, and the account's hourly count) exactly as a
 * login does: a success clears the consecutive count and gives the hourly point back.
 */
export async function confirmPassword(ctx: AdminDeps, req: Request, password: string): Promise<Date> {
  const user = req.user!;
  const limits = ctx.services.rateLimits.fixed;
  const account = user.email.trim().toLowerCase();
  const consecutiveKey = `${account}|${req.ip ?? 'unknown'}`;
  const tooMany = 'Too many login attempts. Please try again later.';
  await Promise.all([
    consumeOrThrow(limits.loginConsecutive, consecutiveKey, tooMany),
    consumeOrThrow(limits.loginPerAccount, account, tooMany),
  ]);
  const row = await users.findById(ctx.db, user.id);
  const ok = await ctx.services.passwords.verify(row ? row.password_hash : null, password);
  if (!ok || !row || row.disabled_at) {
    req.session.adminConfirmedAt = undefined;
    throw validationError({ password: [ADMIN_MESSAGES.wrongPassword] });
  }
  await Promise.all([limits.loginConsecutive.delete(consecutiveKey), refund(limits.loginPerAccount, account)]);
  req.session.adminConfirmedAt = Date.now();
  return confirmedUntil(req) as Date;
}
