import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { PASSWORD, registerViaApi, uniqueEmail, verificationLink } from '../lib/users';

/** The first account journey: sign up, verify by the emailed link, sign out, sign in with remember me. */
test('sign up -> verify by the emailed link -> sign out -> sign in with remember me -> header shows the balance', async ({
  ctx,
}) => {
  const email = uniqueEmail('journey');
  const page = await ctx.newPage();
  await page.goto('/register');
  await page.getByRole('heading', { name: 'Create an account' }).waitFor();
  // Submitting the empty form shows the first rule only.
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Name is required').waitFor();
  // Submits within 300 ms of a failed one are ignored; a person types slower than that.
  await page.waitForTimeout(350);
  await page.getByLabel('Name', { exact: false }).first().fill('Ada');
  await page.getByLabel('Surname').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone', { exact: false }).fill('+49 151 23456789');
  check(
    (await page.getByLabel('Country code').inputValue()) === 'DE',
    'phone country was not taken from the +49 prefix',
  );
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('input[name="password_confirmation"]').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/email-verification');
  await page.getByRole('heading', { name: 'Email Verification' }).waitFor();

  const link = await verificationLink(ctx, email);
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === '/email/verify/success');
  await page.getByRole('heading', { name: 'Email Verification Successful' }).waitFor();

  await page.goto('/account');
  await page.waitForURL((url) => url.pathname === '/account/profile');
  await page.getByText('Ada Lovelace').waitFor();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByText('Logged out successfully').waitFor();
  await page.getByRole('link', { name: 'Sign in' }).first().waitFor();

  await page.getByRole('link', { name: 'Sign in' }).first().click();
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/account/profile');
  await page.getByText('Welcome back!').waitFor();
  const balance = page.getByTestId('balance').first();
  await balance.waitFor();
  const text = (await balance.textContent()) ?? '';
  check(/^Tokens:\s*\d+(\.\d)?$/.test(text.trim()), `header balance reads "${text}"`);
  const session = (await page.context().cookies()).filter((c) => c.httpOnly && c.expires > 0);
  check(session.length > 0, 'remember me did not give a persistent session cookie');
  await ctx.screenshot(page, 'account-signed-in-1280');
});

test('a guest opening /account/profile lands on Login and comes back after signing in', async ({ ctx }) => {
  const email = uniqueEmail('redirect');
  const page = await ctx.newPage();
  await page.goto('/');
  await registerViaApi(page, email);
  await page.goto('/account/profile');
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/account/profile');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/account/profile');
  await page.getByText('Grace Hopper').waitFor();
  // Signed in, the guest pages send the user home.
  await page.goto('/register');
  await page.waitForURL((url) => url.pathname === '/');
});

test('login shows the client and server messages; an outside redirect value is ignored', async ({ ctx }) => {
  const page = await ctx.newPage();
  await page.goto('/login?redirect=//evil.example/x');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Email and password are required').waitFor();
  await page.getByLabel('Email').fill('nobody@example.test');
  await page.locator('input[name="password"]').fill('Wrong123');
  await page.waitForTimeout(350);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'These credentials do not match our records.' }).waitFor();
  check(new URL(page.url()).pathname === '/login', 'left the login page after a failed sign-in');
});

test('register preselects the phone country from the browser alone, asking no third party', async ({ ctx }) => {
  // An English browser in Vienna: the time zone names the country, the language does not.
  const page = await ctx.newPage({ width: 360, height: 800, locale: 'en-US', timezoneId: 'Europe/Vienna' });
  const outside: string[] = [];
  page.on('request', (request) => {
    const host = new URL(request.url()).hostname;
    if (!['127.0.0.1', 'localhost'].includes(host) && request.url().startsWith('http')) outside.push(request.url());
  });
  await page.goto('/register');
  await page
    .getByLabel('Country code')
    .locator('option:checked')
    .filter({ hasText: 'Austria' })
    .waitFor({ state: 'attached' });
  await page.getByLabel('Surname').fill('Lovelace');
  check(outside.length === 0, `the register page asked another host: ${outside.join(', ')}`);
});
