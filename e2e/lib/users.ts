import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';

export const PASSWORD = 'Secret12';

/** A unique address per run so tests never collide with earlier data. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${randomUUID().slice(0, 8)}@example.test`;
}

/**
 * Creates an account through the API with the page's own cookies (real session and CSRF token), then
 * signs out again so the page starts as a guest.
 */
export async function registerViaApi(page: Page, email: string): Promise<void> {
  const context = page.context();
  // Let the page's own start-up calls finish first: a call still in flight with the pre-registration
  // session cookie would re-set that (replaced) cookie when it returns, as a second browser tab would.
  await page.waitForLoadState('networkidle');
  await context.request.get('/api/csrf');
  const xsrf = async () =>
    decodeURIComponent((await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const reg = await context.request.post('/api/register', {
    headers: { 'X-XSRF-TOKEN': await xsrf() },
    data: {
      name: 'Grace',
      surname: 'Hopper',
      email,
      phone: '+49 151 23456789',
      phoneE164: '+4915123456789',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    },
  });
  if (!reg.ok()) throw new Error(`register via API failed: ${reg.status()} ${await reg.text()}`);
  const out = await context.request.post('/api/logout', { headers: { 'X-XSRF-TOKEN': await xsrf() }, data: {} });
  if (!out.ok()) throw new Error(`logout via API failed: ${out.status()} ${await out.text()}`);
}
