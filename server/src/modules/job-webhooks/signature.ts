import { createHmac } from 'node:crypto';

/**
 * The signature header value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the user's
 * webhook secret (the scheme Stripe uses, so receivers can reuse their verification code). The time is
 * signed too, so a receiver can refuse old replays.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
