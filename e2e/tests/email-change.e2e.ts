import fs from 'node:fs';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { waitForMailLink } from '../lib/mail';
import { PASSWORD, signedInPage, uniqueEmail } from '../lib/users';

test('the email address changes through a link sent to the new address; the old one is told', async ({ ctx }) => {
  const page = await signedInPage(ctx, 'email-change');
  const old = ((await page.getByTestId('profile-email').locator('dd').textContent()) ?? '').trim();
  check(old.includes('@'), `the profile shows the address "${old}"`);
  const next = uniqueEmail('email-new');

  await page.getByRole('button', { name: 'Change email address' }).click();
  await page.getByLabel('New email address').fill(next);
  await page.getByLabel('Current password').fill('wrong-password');
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await page.getByText('The current password is incorrect.').waitFor();
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await page.getByRole('status').filter({ hasText: 'We sent a confirmation link to your new address.' }).waitFor();
  await ctx.screenshot(page, 'email-change-link-sent');
  // Nothing has changed yet.
  await page.getByTestId('profile-email').getByText(old).waitFor();

  const link = await waitForMailLink(
    ctx.outboxFile,
    next,
    /https?:\/\/[^\s"\\]+\/api\/user\/change-email\/confirm\?token=[\w-]+/,
  );
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === '/account/profile');
  await page.getByTestId('email-change-outcome').filter({ hasText: 'Your email address has been changed.' }).waitFor();
  await page.getByTestId('profile-email').getByText(next).waitFor();
  check(!page.url().includes('email_change'), `the outcome stays in the address: ${page.url()}`);
  await ctx.screenshot(page, 'email-change-done');

  // The old address was told, with the new one named.
  const told = fs
    .readFileSync(ctx.outboxFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { to: string; subject: string; text: string })
    .filter((m) => m.to.toLowerCase() === old.toLowerCase() && m.subject === 'Your email address was changed');
  check(told.length === 1 && told[0]!.text.includes(next), `the old address got ${JSON.stringify(told)}`);

  // The same link again: said plainly, not as a success.
  await page.goto(link);
  await page.getByTestId('email-change-outcome').filter({ hasText: 'invalid or has expired' }).waitFor();
});
