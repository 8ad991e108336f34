import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { promoteWithCli } from '../lib/operators';
import { smallPhoto } from '../lib/tools';
import { PASSWORD, signedInPage, xsrfToken } from '../lib/users';

/**
 * The operator console (/admin) in the browser: the overview with its charts and a live worker, a token
 * adjustment through the dialog (asking for the password first) that the customer then sees in their token
 * activity, every console page axe-clean, and a customer who gets no console at all.
 */

/** A signed-in operator: a fresh account promoted by the CLI, on the console's overview. */
async function operatorPage(ctx: Parameters<typeof signedInPage>[0]): Promise<{ page: Page; email: string }> {
  const page = await signedInPage(ctx, 'operator');
  const email = (await page.evaluate(async () => {
    const reply = await fetch('/api/user/profile', { credentials: 'same-origin' });
    return ((await reply.json()) as { payload: { email: string } }).payload.email;
  })) as string;
  await promoteWithCli(email);
  await page.reload();
  await page.getByTestId('admin-console-link').click();
  await page.waitForURL((url) => url.pathname === '/admin');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { page, email };
}

test('console: a customer gets no console, no link and the API answers 404', async ({ ctx }) => {
  const page = await signedInPage(ctx, 'no-console');
  await page.getByRole('navigation', { name: 'Account' }).waitFor();
  check((await page.getByTestId('admin-console-link').count()) === 0, 'a customer sees the console link');
  await page.goto('/admin');
  await page.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
  check((await page.getByText('Operator console').count()) === 0, 'the not-found page names the console');
  const api = await page.context().request.get('/api/admin/session');
  check(api.status() === 404, `GET /api/admin/session answered ${api.status()} to a customer`);
  const board = await page.context().request.get('/admin/queues');
  check(!(await board.text()).includes('Image Studio queues'), 'the queue board was served to a customer');
  await ctx.screenshot(page, 'admin-customer-not-found');
});

test('console: the overview shows its charts and a live worker; a job detail and its refund', async ({
  ctx,
  workers,
}) => {
  await workers.ensure();
  const { page } = await operatorPage(ctx);
  await page.getByTestId('admin-queues').waitFor();
  // The overview reloads every 10 s: a worker that is still starting shows up within a few reloads.
  await page.locator('[data-testid="admin-worker"][data-state="live"]').first().waitFor({ timeout: 120_000 });
  const workerId = await page
    .locator('[data-testid="admin-worker"][data-state="live"] th')
    .first()
    .getAttribute('title');

  // A real job, run by that worker, for the charts and the job pages.
  const started = await page.context().request.post('/api/tools/upscale', {
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
  check(started.status() === 202, `the upscale answered ${started.status()}`);
  const jobId = ((await started.json()) as { payload: { id: string } }).payload.id;
  const deadline = Date.now() + 120_000;
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

  await page.getByText(/^Succeeded: [1-9]\d*$/).waitFor({ timeout: 20_000 });
  for (const chart of ['chart-jobs', 'chart-deposits']) {
    const canvas = page.getByTestId(chart).locator('canvas');
    await canvas.waitFor();
    const box = await canvas.boundingBox();
    check(box !== null && box.width > 200 && box.height > 100, `${chart} canvas is ${JSON.stringify(box)}`);
  }
  await page.getByText('Updated').waitFor();
  await ctx.screenshot(page, 'admin-overview');

  // The job's detail: its worker stages, the worker, the provider, the charge in its ledger rows.
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Jobs' }).click();
  await page.getByLabel('Tool').selectOption('upscale');
  // From today, picked in the calendar with the keyboard (it opens on today): the search asks for that day.
  const from = page.getByRole('button', { name: /^From/ });
  check((await from.textContent()) === 'Any day', `the empty From field reads ${await from.textContent()}`);
  await from.click();
  await page.getByRole('dialog', { name: 'From' }).getByRole('grid').waitFor();
  await page.keyboard.press('Enter');
  const today = new Date();
  const shown = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(today);
  await page.getByRole('button', { name: `From ${shown}` }).waitFor();
  check((await page.getByRole('dialog').count()) === 0, 'the calendar stays open after a day was picked');
  const iso = [today.getFullYear(), today.getMonth() + 1, today.getDate()].map((n) => String(n).padStart(2, '0'));
  const [search] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/api/admin/jobs?')),
    page.getByRole('button', { name: 'Search' }).click(),
  ]);
  check(
    new URL(search.url()).searchParams.get('from') === iso.join('-'),
    `the search asked for ${search.url()}, not from ${iso.join('-')}`,
  );
  await page.locator(`a[href="/admin/jobs/${jobId}"]`).click();
  await page.getByRole('heading', { name: 'Timings' }).waitFor();
  await page.getByText(jobId, { exact: true }).waitFor();
  const facts = (await page.locator('.admin-facts').first().textContent()) ?? '';
  check(
    facts.includes('Succeeded') && facts.includes('cpu') && !!workerId && facts.includes(workerId),
    `the job's facts read ${facts}`,
  );
  check((await page.getByTestId('admin-ledger-row').count()) === 1, 'the charge is not among the ledger rows');
  await ctx.screenshot(page, 'admin-job-detail');

  // Refunded once, with a reason, after the password prompt; the button is gone afterwards.
  await page.getByRole('button', { name: 'Refund' }).click();
  await page.getByTestId('reason-form').getByLabel('Reason').fill('The cut-out was bad');
  await page.getByTestId('reason-form').getByRole('button', { name: 'Refund' }).click();
  await page.getByTestId('reauth-form').getByLabel('Password').fill(PASSWORD);
  await page.getByTestId('reauth-form').getByRole('button', { name: 'Confirm and continue' }).click();
  await page.getByText('The job was refunded.').waitFor();
  await page.getByTestId('admin-ledger-row').nth(1).waitFor();
  check((await page.getByRole('button', { name: 'Refund' }).count()) === 0, 'the job can be refunded twice');
});

test('console: an adjustment through the dialog, after the password prompt, shows in the customer ledger', async ({
  ctx,
}) => {
  const customer = await signedInPage(ctx, 'adjusted');
  const customerEmail = (await customer.evaluate(async () => {
    const reply = await fetch('/api/user/profile', { credentials: 'same-origin' });
    return ((await reply.json()) as { payload: { email: string } }).payload.email;
  })) as string;
  const { page } = await operatorPage(ctx);

  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Email, name or id').fill(customerEmail);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: customerEmail }).click();
  await page.getByRole('heading', { name: customerEmail, level: 1 }).waitFor();
  check((await page.getByTestId('admin-user-balance').textContent())?.trim() === '10', 'the balance is not 10');
  await ctx.screenshot(page, 'admin-user-detail');

  await page.getByTestId('admin-adjust').click();
  const form = page.getByTestId('reason-form');
  await form.getByLabel('Tokens (negative to deduct)').fill('2.5');
  await form.getByLabel('Reason').fill('Goodwill for a bad cut-out');
  await ctx.screenshot(page, 'admin-adjust-dialog');
  await form.getByRole('button', { name: 'Adjust tokens' }).click();

  // The session has not confirmed the password yet: the change is refused, the dialog asks, then it is retried.
  const reauth = page.getByTestId('reauth-form');
  await reauth.getByLabel('Password').waitFor();
  await reauth.getByLabel('Password').fill('not-the-password');
  await reauth.getByRole('button', { name: 'Confirm and continue' }).click();
  await reauth.getByText('The password is not correct.').waitFor();
  await ctx.screenshot(page, 'admin-reauth-dialog');
  await reauth.getByLabel('Password').fill(PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm and continue' }).click();
  await page.getByTestId('admin-notice').getByText('The balance was adjusted.').waitFor();
  await page.getByTestId('admin-user-balance').getByText('12.5').waitFor();
  const row = page.getByTestId('admin-ledger-row').filter({ hasText: 'Goodwill for a bad cut-out' });
  check((await row.count()) === 1, 'the adjustment is not in the console ledger');

  await customer.goto('/account/token-activity');
  const entry = customer.getByTestId('ledger-row').filter({ hasText: 'Goodwill for a bad cut-out' });
  await entry.waitFor();
  const cells = (await entry.locator('td').allTextContents()).map((c) => c.trim());
  check(
    cells[1]?.includes('Adjustment') && cells[2] === '+2.5' && cells[3] === '12.5',
    `row reads ${JSON.stringify(cells)}`,
  );

  // The audit log has it, with the operator and the reason.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action').fill('users.adjust');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByTestId('admin-audit').getByText('Goodwill for a bad cut-out').first().waitFor();
});

test('console: every page is axe-clean', async ({ ctx }) => {
  const { page } = await operatorPage(ctx);
  const pages: Array<[string, string, string]> = [
    ['Jobs', 'Jobs', 'admin-jobs'],
    ['Users', 'Users', 'admin-users'],
    ['Payments', 'Payments', 'admin-payments'],
    ['Catalog', 'Catalog', 'admin-catalog'],
    ['Audit log', 'Audit log', 'admin-audit'],
  ];
  for (const [link, heading, shot] of pages) {
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await ctx.screenshot(page, shot);
  }
  // The catalog refuses what the CLI refuses: a pack price with three decimals.
  await page.getByRole('link', { name: 'Catalog' }).click();
  const packForm = page.getByTestId('pack-form');
  await packForm.getByLabel('Title').fill('E2E pack');
  await packForm.getByLabel('Price (EUR, 0 = free)').fill('1.234');
  await packForm.getByLabel('Tokens').fill('10');
  await packForm.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('reauth-form').getByLabel('Password').fill(PASSWORD);
  await page.getByTestId('reauth-form').getByRole('button', { name: 'Confirm and continue' }).click();
  await packForm.getByText('Price must be an amount in EUR with at most 2 decimals').waitFor();
  await ctx.screenshot(page, 'admin-catalog-refused');

  // In German: the console's own texts and the server's refusal.
  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  const menu = page.getByRole('navigation', { name: 'Bereiche der Konsole' });
  await menu.getByRole('link', { name: 'Prüfprotokoll' }).waitFor();
  await packForm.getByRole('button', { name: 'Speichern' }).click();
  await packForm.getByText('Der Preis muss ein Betrag in EUR mit höchstens 2 Nachkommastellen sein').waitFor();
  // The jobs filter's calendar speaks German and shows the German date style.
  await menu.getByRole('link', { name: 'Aufträge' }).click();
  await page.getByRole('button', { name: /^Von/ }).click();
  const calendar = page.getByRole('dialog', { name: 'Von' });
  await calendar.getByRole('grid').waitFor();
  const month = new Intl.DateTimeFormat('de-DE', { month: 'long', year: 'numeric' }).format(new Date());
  await calendar.getByText(month).waitFor();
  await ctx.screenshot(page, 'admin-jobs-calendar-de');
  await page.keyboard.press('Escape');
  check((await page.getByRole('dialog').count()) === 0, 'Escape did not close the calendar');
  await page.getByRole('button', { name: /^Von/ }).click();
  await page.getByRole('dialog', { name: 'Von' }).getByRole('grid').waitFor();
  await page.keyboard.press('Enter');
  const german = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium' }).format(new Date());
  await page.getByRole('button', { name: `Von ${german}` }).waitFor();
  await page.getByRole('button', { name: 'Von leeren' }).click();
  await page.getByRole('button', { name: 'Von Beliebiger Tag' }).waitFor();
  await menu.getByRole('link', { name: 'Übersicht' }).click();
  await page.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Aufträge pro Stunde (24 Stunden)' }).waitFor();
  await ctx.screenshot(page, 'admin-overview-de');
});
