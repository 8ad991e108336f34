import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { signedInPage, xsrfToken } from '../lib/users';

async function toGerman(page: Page): Promise<void> {
  await page.getByLabel('Language').first().selectOption({ label: 'Deutsch' });
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).first().waitFor();
}

test('German readers get the Terms, Privacy, Cookies and About pages, footer and free pack in German', async ({
  ctx,
}) => {
  const page = await ctx.newPage();
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  await page.reload();
  const footerPages = page.getByRole('navigation', { name: 'Information' });
  await footerPages.getByRole('link', { name: 'Terms of Service' }).waitFor();
  await page
    .locator('footer')
    .getByText(/© \d{4} Image Studio GmbH\. All rights reserved\./)
    .waitFor();
  await toGerman(page);
  const german = page.getByRole('navigation', { name: 'Informationen' });
  for (const title of ['Allgemeine Geschäftsbedingungen', 'Datenschutzerklärung', 'Cookie-Richtlinie', 'Über uns']) {
    await german.getByRole('link', { name: title }).waitFor();
  }
  await page
    .locator('footer')
    .getByText(/© \d{4} Image Studio GmbH\. Alle Rechte vorbehalten\./)
    .waitFor();
  // The free pack's card, like the paid ones, in the reader's language.
  const free = page.locator('.bundle--free');
  await free.getByRole('heading', { name: 'Kostenlos' }).waitFor();
  await free.getByText('Alle Werkzeuge ausprobieren: 10 Tokens geschenkt.').waitFor();
  await ctx.screenshot(page, 'german-home-footer');

  for (const [link, heading] of [
    ['Allgemeine Geschäftsbedingungen', 'Allgemeine Geschäftsbedingungen'],
    ['Datenschutzerklärung', 'Datenschutzerklärung'],
    ['Cookie-Richtlinie', 'Cookie-Richtlinie'],
    ['Über uns', 'Über Image Studio'],
  ] as const) {
    await german.getByRole('link', { name: link }).click();
    await page.locator('main h1', { hasText: heading }).waitFor();
    check(
      !/Last updated|Image Studio puts/.test((await page.locator('main').textContent()) ?? ''),
      `${link} still shows English text`,
    );
    await ctx.screenshot(page, `german-page-${link.toLowerCase().replace(/[^a-zß-ü]+/g, '-')}`);
  }
  // The page follows a change of language where it is open.
  await page.getByLabel('Sprache').first().selectOption({ label: 'English' });
  await page.locator('main h1', { hasText: 'About Image Studio' }).waitFor();
});

test("German token activity, profile country and join date are in the reader's language", async ({ ctx }) => {
  const page = await signedInPage(ctx, 'german');
  // The profile keeps a country (Germany, ISO 276); the page names it in the reader's language.
  const put = await page.context().request.put('/api/user/profile', {
    headers: { 'X-XSRF-TOKEN': await xsrfToken(page) },
    data: { name: 'Grace', surname: 'Hopper', phone: '+49 151 23456789', country_id: 276 },
  });
  check(put.ok(), `the profile update answered ${put.status()}: ${await put.text()}`);
  await page.reload();
  await page.getByTestId('profile-country').getByText('Germany').waitFor();
  await toGerman(page);
  await page.getByTestId('profile-country').getByText('Deutschland').waitFor();
  const joined = (await page.getByTestId('profile-joined').locator('dd').textContent()) ?? '';
  check(/^\d{2}\.\d{2}\.\d{4}$/.test(joined.trim()), `"Mitglied seit" reads "${joined}"`);
  await page.getByTestId('profile-joined').getByText('Mitglied seit').waitFor();
  await ctx.screenshot(page, 'german-profile');

  await page.goto('/account/token-activity');
  const row = page.getByTestId('ledger-row').last();
  await row.waitFor();
  const text = (await row.textContent()) ?? '';
  check(!/Free tokens|Welcome bonus/.test(text), `the German token activity reads "${text}"`);
  await row.getByText('Gratis-Tokens').first().waitFor();
  // A date with its time of day, in the German style.
  check(/\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/.test(text), `the German ledger date reads "${text}"`);
  await ctx.screenshot(page, 'german-token-activity');
});
