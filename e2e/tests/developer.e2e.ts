import { request } from '@playwright/test';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { signIn, verifiedAccount } from '../lib/users';

/**
 * The developer features in the browser: the Token activity tab with its running balance and CSV
 * export, the API keys tab (a key shown once, used from a client without cookies, then revoked), and
 * the /developers reference.
 */
test('developer: token activity, API keys and the /developers page', async ({ ctx }) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'developer');
  await signIn(page, email);

  await page.goto('/account/token-activity');
  await page.getByRole('heading', { name: 'Token activity' }).waitFor();
  const row = page.getByTestId('ledger-row').first();
  await row.waitFor();
  const cells = (await row.locator('td').allTextContents()).map((c) => c.trim());
  check(
    cells[1]?.includes('Free tokens') && cells[2] === '+10' && cells[3] === '10',
    `ledger row reads ${JSON.stringify(cells)}`,
  );
  const csv = await page
    .context()
    .request.get((await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? '');
  check(
    csv.ok() && (await csv.text()).startsWith('id,created_at,kind,amount,balance_after'),
    `CSV export answered ${csv.status()}`,
  );
  await ctx.screenshot(page, 'token-activity-tab');

  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByLabel('Key name').fill('E2E script');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = ((await page.getByTestId('new-api-key').textContent()) ?? '').trim();
  check(/^isk_live_[A-Za-z0-9_-]{43}$/.test(key), `new key reads "${key}"`);
  const listed = page.getByTestId('api-key-row').filter({ hasText: 'E2E script' });
  check(
    ((await listed.textContent()) ?? '').includes(key.slice(0, 13)) &&
      !((await listed.textContent()) ?? '').includes(key),
    'the list shows the prefix only',
  );
  check(((await page.getByTestId('webhook-secret').textContent()) ?? '').startsWith('whsec_'), 'webhook secret shown');
  await ctx.screenshot(page, 'api-keys-tab');

  // A script: no cookies at all, only the key.
  const script = await request.newContext({ baseURL: ctx.baseUrl });
  try {
    const profile = await script.get('/api/user/profile', { headers: { Authorization: `Bearer ${key}` } });
    check(
      profile.ok() && ((await profile.json()) as { payload: { email: string } }).payload.email === email,
      `key call answered ${profile.status()}`,
    );

    // Asked in the app's own dialog (never the browser's confirm()); keeping it first changes nothing.
    let nativeConfirm = false;
    page.on('dialog', (dialog) => {
      nativeConfirm = true;
      void dialog.dismiss();
    });
    await listed.getByRole('button', { name: 'Revoke' }).click();
    const question = page.getByRole('dialog', { name: 'Revoke API key' });
    await question.getByRole('button', { name: 'Keep it' }).click();
    await question.waitFor({ state: 'hidden' });
    await listed.waitFor();
    await listed.getByRole('button', { name: 'Revoke' }).click();
    await question.getByRole('button', { name: 'Revoke' }).click();
    check(!nativeConfirm, 'revoking used the browser confirm()');
    await listed.waitFor({ state: 'detached' });
    const revoked = await script.get('/api/user/profile', { headers: { 'X-Api-Key': key } });
    check(revoked.status() === 401, `revoked key answered ${revoked.status()}`);
  } finally {
    await script.dispose();
  }

  await page.goto('/developers');
  await page.getByRole('heading', { name: 'Developer API' }).waitFor();
  await page.getByTestId('operation').filter({ hasText: '/api/tools/remove-background' }).waitFor();
  // The public reference is the customer's: no probes, metrics or payment-provider routes.
  for (const operatorPath of ['/api/metrics', '/api/ready', '/api/webhooks/stripe', '/api/deposit/test-checkout'])
    check(
      (await page.getByTestId('operation').filter({ hasText: operatorPath }).count()) === 0,
      `/developers lists the operator route ${operatorPath}`,
    );
  check(
    ((await page.getByTestId('example-curl').textContent()) ?? '').includes('Authorization: Bearer'),
    'curl example shown',
  );
  await ctx.screenshot(page, 'developers-page');
});
