import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';

/**
 * The built-in test checkout is reached like Stripe's page: by a link that is itself the permission
 * (no session needed, so its form can post without an XSRF header). The link's token is an HMAC of
 * the deposit id under SESSION_SECRET, so nobody can complete someone else's deposit by guessing ids.
 */
export function testCheckoutToken(config: Config, depositId: string): string {
  return createHmac('sha256', config.SESSION_SECRET).update(`test-checkout:${depositId}`).digest('base64url');
}

export function testCheckoutTokenValid(config: Config, depositId: string, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const a = Buffer.from(token);
  const b = Buffer.from(testCheckoutToken(config, depositId));
  return a.length === b.length && timingSafeEqual(a, b);
}
