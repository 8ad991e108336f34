import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { E2E_DATABASE_URL } from '@imagestudio/runtime/testing';
import { check, type E2EContext } from './harness';
import { waitForMailLink } from './mail';

export const PASSWORD = 'Secret12';

/** A unique address per run so tests never collide with earlier data. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${randomUUID().slice(0, 8)}@example.test`;
}

/** The XSRF token of the page's browser context (its readable cookie), for API calls made beside the page. */
export async function xsrfToken(page: Page): Promise<string> {
  return decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
}

/** Waits for the verification mail to `email` and returns its link. */
export function verificationLink(ctx: Pick<E2EContext, 'outboxFile'>, email: string): Promise<string> {
  return waitForMailLink(ctx.outboxFile, email, /https?:\/\/[^\s"\\]+\/api\/email\/verify\/[^\s"\\<]+/);
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
  const reg = await context.request.post('/api/register', {
    headers: { 'X-XSRF-TOKEN': await xsrfToken(page) },
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
  const out = await context.request.post('/api/logout', {
    headers: { 'X-XSRF-TOKEN': await xsrfToken(page) },
    data: {},
  });
  if (!out.ok()) throw new Error(`logout via API failed: ${out.status()} ${await out.text()}`);
}

/** A registered account whose email is verified (checkout needs one), signed out again. */
export async function verifiedAccount(ctx: E2EContext, page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await page.goto('/');
  await registerViaApi(page, email);
  const res = await page.context().request.get(await verificationLink(ctx, email));
  check(res.ok(), `verification link answered ${res.status()}`);
  return email;
}

/** Fills the Login form (the page must be on /login) and waits to leave it. */
export async function submitLogin(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email);
}

/** A verified, signed-in user (10 free tokens) in a fresh browser context at `width`. */
export async function signedInPage(ctx: E2EContext, tag: string, width = 1280): Promise<Page> {
  const email = uniqueEmail(tag);
  const page = await ctx.newPage({ width, height: 900 });
  await page.goto('/');
  // Consent given, so the cookie banner does not cover the screenshots.
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  await registerViaApi(page, email);
  await page.goto(await verificationLink(ctx, email));
  await signIn(page, email);
  await page.waitForURL((url) => url.pathname === '/account/profile');
  return page;
}

/** Takes tokens from an account the way an operator does (`npm run admin -- users deduct`), against the run's database. */
export async function deductWithCli(email: string, tokens: number): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/admin.ts', 'users', 'deduct', email, String(tokens), '--reason', 'e2e: out of tokens'],
    {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, LOG_LEVEL: 'warn' },
      timeout: 60_000,
    },
  );
}
