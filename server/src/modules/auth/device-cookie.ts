import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { secureCookies } from '../../http/session';
import type { AppContext } from '../../context';

/**
 * The device cookie (OWASP's "device cookies" against account lock-out): a browser that signed in to an
 * account successfully gets `<nonce>.<HMAC(account|nonce)>`. A login attempt presenting a valid one for
 * the account it names is limited per device instead of by the account-wide hourly limit, so an attacker
 * guessing from elsewhere cannot lock the owner out of their own browser. The cookie holds no email: the
 * signature only verifies against the account the attempt is for.
 */
export const DEVICE_COOKIE_NAME = 'imagestudio.device';
const DEVICE_COOKIE_DAYS = 180;

function sign(ctx: Pick<AppContext, 'config'>, account: string, nonce: string): string {
  return createHmac('sha256', ctx.config.SESSION_SECRET).update(`device|${account}|${nonce}`).digest('base64url');
}

/** The device's id when the request carries a valid device cookie for `account`, else undefined. */
export function trustedDevice(ctx: Pick<AppContext, 'config'>, req: Request, account: string): string | undefined {
  const value: unknown = req.cookies?.[DEVICE_COOKIE_NAME];
  if (typeof value !== 'string') return undefined;
  const [nonce, signature] = value.split('.');
  if (!nonce || !signature) return undefined;
  const expected = Buffer.from(sign(ctx, account, nonce));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
}

/** Marks this browser as a device that signed in to `account` (keeping its id when it had one). */
export function rememberDevice(ctx: Pick<AppContext, 'config'>, req: Request, res: Response, account: string): void {
  const nonce = trustedDevice(ctx, req, account) ?? randomBytes(16).toString('base64url');
  const secure = secureCookies(ctx.config);
  res.cookie(DEVICE_COOKIE_NAME, `${nonce}.${sign(ctx, account, nonce)}`, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure === 'auto' ? req.secure : secure,
    path: '/api/login',
    maxAge: DEVICE_COOKIE_DAYS * 24 * 3600 * 1000,
  });
}
