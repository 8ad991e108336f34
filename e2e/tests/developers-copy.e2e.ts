import { test } from '../lib/fixtures';
import { check } from '../lib/harness';

test('the footer leads to /developers, whose examples each copy with one button', async ({ ctx }) => {
  const page = await ctx.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  await page.reload();
  await page.getByRole('navigation', { name: 'Information' }).getByRole('link', { name: 'Developer API' }).click();
  await page.waitForURL('**/developers');
  for (const name of ['curl', 'JavaScript']) {
    const button = page.getByRole('button', { name: `Copy (${name} example)` });
    await button.click();
    await page.getByRole('button', { name: `Copied (${name} example)` }).waitFor();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    const shown = ((await page.getByTestId(`example-${name}`).textContent()) ?? '').trim();
    check(copied.trim() === shown && shown.length > 40, `the ${name} button copied ${JSON.stringify(copied)}`);
  }
  await ctx.screenshot(page, 'developers-copied');
});
