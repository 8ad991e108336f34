import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { E2E_DATABASE_URL } from '@imagestudio/runtime/testing';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { promoteWithCli } from '../lib/operators';
import { smallPhoto } from '../lib/tools';
import { PASSWORD, registerViaApi, signedInPage, uniqueEmail, verificationLink, xsrfToken } from '../lib/users';

/**
 * The German flows read German throughout: sign-in errors (a wrong password and a disabled account), the
 * checkout dialog, the footer and the console's refund dialog. Each screen's text is checked against a list of
 * English words that have no place in German text ("Token" and "Isle of Man" are German too, so "token" and "of"
 * are not on it).
 */

const ENGLISH = new Set(
  (
    'the and or to for with your you please these this that our not do does has have been was were is are ' +
    'credentials records match account disabled contact payment method credit debit card back confirm amount ' +
    'address country city germany first last name phone information save refund reason characters customer ' +
    'sees their activity cost goes once job vat id failed cancel close email password sign'
  ).split(' '),
);

/** The English words in a locator's visible text. */
async function englishIn(locator: Locator): Promise<string[]> {
  const text = await locator.innerText();
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [...new Set(words.filter((w) => ENGLISH.has(w)))];
}

async function expectGerman(locator: Locator, what: string): Promise<void> {
  const found = await englishIn(locator);
  check(found.length === 0, `${what} has English words: ${found.join(', ')} in "${await locator.innerText()}"`);
}

async function toGerman(page: Page): Promise<void> {
  await page.getByLabel('Language').first().selectOption({ label: 'Deutsch' });
  await page.locator('html[lang="de"]').waitFor({ state: 'attached' });
}

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, LOG_LEVEL: 'warn' },
    timeout: 60_000,
  });

test('German sign-in errors, checkout dialog and footer have no English words', async ({ ctx }) => {
  const page = await ctx.newPage({ width: 1280, height: 900 });
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  const email = uniqueEmail('german-flows');
  await registerViaApi(page, email);
  await page.context().request.get(await verificationLink(ctx, email));
  // The sign-in page has no language menu: the choice is made on the home page and kept.
  await toGerman(page);
  await page.goto('/login');

  const form = page.locator('form.auth-form');
  const signIn = async (password: string) => {
    await page.getByLabel('E-Mail').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await form.getByRole('button', { name: 'Anmelden' }).click();
  };
  await signIn('Wrong1234');
  await form.getByRole('alert').waitFor();
  await expectGerman(form, 'the sign-in form after a wrong password');
  await ctx.screenshot(page, 'german-sign-in-wrong-password');

  await run(['users', 'disable', email]);
  await signIn(PASSWORD);
  await form.getByText(/gesperrt/).waitFor();
  await expectGerman(form, 'the sign-in form of a disabled account');
  await ctx.screenshot(page, 'german-sign-in-disabled');

  await run(['users', 'enable', email]);
  await signIn(PASSWORD);
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto('/pricing');
  // After a reload the German strings arrive a moment after the page: wait for them, then for the address.
  await page
    .locator('footer')
    .getByText(/Alle Rechte vorbehalten/)
    .waitFor();
  await page
    .locator('footer')
    .getByText(/Berlin, Deutschland/)
    .waitFor();
  await expectGerman(page.locator('footer'), 'the footer');
  await page.getByTestId('custom-buy').click();
  const buy = page.getByRole('dialog', { name: 'Tokens kaufen' });
  await buy.getByRole('checkbox').check();
  await buy.getByRole('button', { name: 'Kredit-/Debitkarte' }).click();
  const confirm = page.getByRole('dialog', { name: 'Angaben bestätigen' });
  await confirm.getByRole('button', { name: 'Zahlung bestätigen' }).waitFor();
  await confirm.locator('select[name="country"]').selectOption({ label: 'Deutschland' });
  await expectGerman(confirm, 'the checkout dialog');
  await ctx.screenshot(page, 'german-checkout-dialog');
});

test("German console refund dialog has no English words and counts the job's tokens", async ({ ctx, workers }) => {
  await workers.ensure();
  const page = await signedInPage(ctx, 'german-operator');
  // A worker that is still starting is not advertised yet: the tool answers 503 until its first heartbeat.
  const upscale = async () =>
    page.context().request.post('/api/tools/upscale', {
      headers: { 'X-XSRF-TOKEN': await xsrfToken(page) },
      multipart: {
        image: {
          name: 'small.png',
          mimeType: 'image/png',
          buffer: fs.readFileSync(await smallPhoto('motorcycle_left', 160)),
        },
        factor: '2',
      },
    });
  let started = await upscale();
  for (let tries = 0; started.status() === 503 && tries < 120; tries += 1) {
    await page.waitForTimeout(1000);
    started = await upscale();
  }
  check(started.status() === 202, `the upscale answered ${started.status()}`);
  const jobId = ((await started.json()) as { payload: { id: string } }).payload.id;
  const deadline = Date.now() + 180_000;
  let status = '';
  while (Date.now() < deadline && status !== 'succeeded') {
    const job = (await (await page.context().request.get(`/api/jobs/${jobId}`)).json()) as {
      payload: { status: string };
    };
    status = job.payload.status;
    check(status !== 'failed' && status !== 'cancelled', `the job ended ${status}`);
    await page.waitForTimeout(500);
  }
  check(status === 'succeeded', `the job is still ${status}`);
  const email = (await page.evaluate(
    `fetch('/api/user/profile').then((r) => r.json()).then((b) => b.payload.email)`,
  )) as string;
  await toGerman(page);
  await promoteWithCli(email);
  await page.goto(`/admin/jobs/${jobId}`);
  await page.getByRole('button', { name: 'Erstatten' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('reason-form').waitFor();
  await expectGerman(dialog, 'the refund dialog');
  check((await dialog.innerText()).includes('1 Token '), `the refund dialog reads "${await dialog.innerText()}"`);
  // An empty reason is refused at once, before any password prompt.
  await dialog.getByTestId('reason-form').getByRole('button', { name: 'Erstatten' }).click();
  await dialog.getByText('Bitte geben Sie einen Grund mit mindestens 3 Zeichen an.').waitFor();
  check((await page.getByTestId('reauth-form').count()) === 0, 'the password was asked before the reason');
  await expectGerman(dialog, 'the refund dialog with its error');
  await ctx.screenshot(page, 'german-console-refund');
});
