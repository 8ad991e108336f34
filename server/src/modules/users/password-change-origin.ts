import type { Request } from 'express';

/** Where and when a password change came from, as the notice to the customer tells it. */
export interface PasswordChangeOrigin {
  at: Date;
  ip: string | null;
  userAgent: string | null;
}

/** The origin of a change made by this request: now, its client address (behind the trusted proxy) and browser. */
export function passwordChangeOrigin(req: Request): PasswordChangeOrigin {
  return { at: new Date(), ip: req.ip ?? null, userAgent: req.get('user-agent')?.slice(0, 300) ?? null };
}
