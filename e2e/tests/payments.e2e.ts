import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { pdfText } from '@imagestudio/runtime/testing';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { PASSWORD, signIn, submitLogin, verifiedAccount } from '../lib/users';

/**
 * Payments in the browser against the real API and the built-in test checkout (no STRIPE_SECRET_KEY):
 * pricing, Buy Tokens, Confirm Information, the three payment outcomes, currencies with 0 and 3
 * decimals, payment history with receipts, and changing the password.
 */

/** The header's "Tokens: N" as a number; NaN while the header shows its placeholder (the profile is loading). */
async function headerBalance(page: Page): Promise<number> {
  const text = (await page.getByTestId('balance').first().textContent()) ?? '';
  const match = text.replace(/,/g, '').match(/(\d+(?:\.\d)?)\s*$/);
  return match ? Number(match[1]) : NaN;
}

/** The balance as the API knows it (the header may still be loading the profile). */
async function apiBalance(page: Page): Promise<number> {
  const res = await page.context().request.get('/api/user/profile');
  check(res.ok(), `GET /api/user/profile answered ${res.status()}`);
  return Number(((await res.json()) as { payload: { balance: number } }).payload.balance);
}

async function waitForBalance(page: Page, expected: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = -1;
  while (Date.now() < deadline) {
    seen = await headerBalance(page);
    if (Math.abs(seen - expected) < 1e-9) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`header balance is ${seen}, expected ${expected}`);
}

const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\u00a0/g, ' ').trim();

/** Ticks the terms in Buy Tokens and presses the card button; returns the Confirm Information dialog. */
async function continueToCheckout(page: Page): Promise<Locator> {
  const buy = page.getByRole('dialog', { name: 'Buy Tokens' });
  await buy.getByRole('checkbox').check();
  await buy.getByRole('button', { name: 'Credit/Debit card' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Information' });
  await confirm.waitFor();
  return confirm;
}

/** Completes the billing fields the registration did not fill. */
async function fillBilling(confirm: Locator): Promise<void> {
  await confirm.locator('select[name="country"]').selectOption({ label: 'Germany' });
  await confirm.getByLabel('City').fill('Berlin');
  await confirm.getByLabel('Address').fill('Friedrichstraße 1');
  await confirm.getByLabel('Post Code').fill('10117');
}

/** Confirms payment and waits on the built-in test checkout; returns the total it will charge. */
async function confirmPayment(page: Page, confirm: Locator): Promise<string> {
  await confirm.getByRole('button', { name: 'CONFIRM PAYMENT' }).click();
  await page.waitForURL((url) => url.pathname === '/api/deposit/test-checkout' && url.searchParams.has('order'));
  return text(page.locator('[data-field="total"]'));
}

/** Signed in on /pricing with the custom amount's Buy Tokens modal open; returns its "Total to pay". */
async function openCustomPurchase(page: Page): Promise<string> {
  await page.goto('/pricing');
  await page.getByTestId('custom-buy').click();
  const buy = page.getByRole('dialog', { name: 'Buy Tokens' });
  await buy.waitFor();
  return text(buy.getByTestId('plan-total'));
}

test('a guest chooses a pack -> logs in -> back on pricing -> Buy Tokens -> Confirm Information -> Pay -> success and a larger balance', async ({
  ctx,
}) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'pack');
  await page.goto('/pricing');
  await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
  const starter = page.locator('[data-testid^="pack-"]').filter({ hasText: 'Starter' });
  await starter.getByRole('button', { name: 'Choose' }).click();
  await page.waitForURL(
    (url) => url.pathname === '/login' && (url.searchParams.get('redirect') ?? '').startsWith('/pricing?pack='),
  );
  await submitLogin(page, email);
  await page.waitForURL((url) => url.pathname === '/pricing');

  const buy = page.getByRole('dialog', { name: 'Buy Tokens' });
  await buy.waitFor();
  check((await text(buy.getByTestId('plan-title'))) === 'Starter', 'Buy Tokens does not show the Starter pack');
  check((await text(buy.getByTestId('plan-tokens'))) === '100', 'Buy Tokens does not show 100 tokens');
  const shown = await text(buy.getByTestId('plan-total'));
  check(shown === '€8.50', `Starter costs ${shown}, expected €8.50 (seeded price, VAT 0)`);
  const before = await apiBalance(page);
  // The card button checks the terms first.
  await buy.getByRole('button', { name: 'Credit/Debit card' }).click();
  await buy.getByText('Please accept the terms and privacy policy').waitFor();

  const confirm = await continueToCheckout(page);
  check((await confirm.getByLabel('Email').isDisabled()) === true, 'the account email is editable in checkout');
  // The form is prefilled from the profile once it loads; clear the name only after that, or the late
  // prefill would put it back.
  const firstName = confirm.getByLabel('First Name');
  const prefillDeadline = Date.now() + 10_000;
  while ((await firstName.inputValue()) !== 'Grace' && Date.now() < prefillDeadline) await page.waitForTimeout(100);
  await firstName.fill('');
  await confirm.getByRole('button', { name: 'CONFIRM PAYMENT' }).click();
  await confirm.getByText('First name is required').waitFor();
  await confirm.getByText('City is required').waitFor();
  await confirm.getByLabel('First Name').fill('Grace');
  await fillBilling(confirm);
  check((await text(confirm.getByTestId('checkout-amount'))) === shown, 'Confirm Information shows another amount');

  const charged = await confirmPayment(page, confirm);
  check(charged === shown, `the checkout charges ${charged} but pricing showed ${shown}`);
  await page.locator('button[data-outcome="paid"]').click();
  await page.waitForURL((url) => url.pathname === '/success-payment' && url.searchParams.has('order'));
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
  await page.getByText('Payment completed successfully!').waitFor();
  await waitForBalance(page, before + 100);
  await page.getByRole('link', { name: 'Go to Account' }).waitFor();
  await page.getByRole('link', { name: 'Back to Home' }).first().waitFor();
});

test('Decline -> fail page with the error; Cancel -> the cancelled page, nothing charged; the balance stays', async ({
  ctx,
}) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'decline');
  await signIn(page, email);
  const before = await apiBalance(page);

  const declinedTotal = await openCustomPurchase(page);
  let confirm = await continueToCheckout(page);
  await fillBilling(confirm);
  await confirmPayment(page, confirm);
  await page.locator('button[data-outcome="declined"]').click();
  await page.waitForURL((url) => url.pathname === '/fail-payment' && url.searchParams.has('error'));
  // The address carries a code, and the page shows its own text for it (never text from the address).
  const error = new URL(page.url()).searchParams.get('error') ?? '';
  check(error === 'card_declined', `the fail page's address names "${error}"`);
  await page.getByRole('heading', { name: 'Payment Failed' }).waitFor();
  const shown = await text(page.getByTestId('payment-error'));
  check(
    shown === 'Your card was declined. Please use another card or ask your bank.',
    `the fail page shows "${shown}"`,
  );
  await page.getByText('Payment failed. Please try again.').waitFor();

  // Try Again reopens Buy Tokens for the same amount as the declined order.
  await page.getByRole('link', { name: 'Try Again' }).click();
  await page.waitForURL((url) => url.pathname === '/pricing');
  const again = page.getByRole('dialog', { name: 'Buy Tokens' });
  await again.waitFor();
  const againTotal = await text(again.getByTestId('plan-total'));
  check(againTotal === declinedTotal, `Try Again opened ${againTotal}, the declined order was ${declinedTotal}`);
  confirm = await continueToCheckout(page);
  await fillBilling(confirm);
  await confirmPayment(page, confirm);
  await page.locator('button[data-outcome="cancelled"]').click();
  await page.waitForURL((url) => url.pathname === '/cancelled-payment');
  await page.getByRole('heading', { name: 'Payment Cancelled' }).waitFor();
  await page.getByText('You cancelled the payment. Nothing was charged and your balance is unchanged.').waitFor();
  check(
    (await page.getByText('Payment failed. Please try again.').count()) === 0,
    'a cancelled payment shows the failure toast',
  );
  check((await apiBalance(page)) === before, 'a failed payment changed the balance');
  await waitForBalance(page, before);
});

/** Picks a currency in the header and waits until the slider's total is in it. */
async function chooseCurrency(page: Page, code: string, totalPattern: RegExp): Promise<string> {
  await page.goto('/pricing');
  await page.getByLabel('Currency').first().selectOption(code);
  const total = page.getByTestId('custom-total');
  const deadline = Date.now() + 5000;
  let seen = '';
  while (Date.now() < deadline) {
    seen = await text(total);
    if (totalPattern.test(seen)) return seen;
    await page.waitForTimeout(100);
  }
  throw new Error(`in ${code} the custom total reads "${seen}"`);
}

test('a custom amount in JPY (no decimals) and in KWD (three decimals) charges what was shown; history lists them with receipts', async ({
  ctx,
}) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'currency');
  await signIn(page, email);
  const before = await apiBalance(page);

  const paid: Array<{ currency: string; shown: string; tokens: number }> = [];
  for (const [code, pattern, percent] of [
    ['JPY', /^¥[\d,]+$/, '25'],
    ['KWD', /^KWD \d+\.\d{3}$/, '10'],
  ] as const) {
    const initial = await chooseCurrency(page, code, pattern);
    await page.getByTestId('token-slider').fill(percent);
    const sliderTotal = await text(page.getByTestId('custom-total'));
    check(pattern.test(sliderTotal), `${code} slider total "${sliderTotal}" has the wrong decimals (was ${initial})`);
    const tokens = Number((await text(page.getByTestId('custom-tokens'))).replace(/,/g, ''));
    await page.getByTestId('custom-buy').click();
    const buy = page.getByRole('dialog', { name: 'Buy Tokens' });
    await buy.waitFor();
    const shown = await text(buy.getByTestId('plan-total'));
    check(shown === sliderTotal, `${code}: Buy Tokens shows ${shown}, the slider ${sliderTotal}`);
    const confirm = await continueToCheckout(page);
    await fillBilling(confirm);
    const charged = await confirmPayment(page, confirm);
    check(charged === shown, `${code}: the checkout charges ${charged} but pricing showed ${shown}`);
    await page.locator('button[data-outcome="paid"]').click();
    await page.waitForURL((url) => url.pathname === '/success-payment');
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    paid.push({ currency: code, shown, tokens });
  }
  await waitForBalance(page, Math.round((before + paid[0]!.tokens + paid[1]!.tokens) * 10) / 10);

  await page.goto('/account/payment-history');
  await page.getByRole('heading', { name: 'Payment History' }).waitFor();
  const rows = page.getByTestId('payment-row');
  await rows.first().waitFor();
  check((await rows.count()) === 2, `payment history lists ${await rows.count()} payments, expected 2`);
  const newest = await text(rows.first());
  check(newest.includes(paid[1]!.shown) && newest.includes('Paid'), `newest history row reads "${newest}"`);
  // One date style per language: English is "Nov 25, 2026" here as on the profile.
  check(/[A-Z][a-z]{2} \d{1,2}, \d{4}/.test(newest), `history date is not "Mon D, YYYY": "${newest}"`);
  check((await text(rows.nth(1))).includes(paid[0]!.shown), 'the JPY payment is missing from the history');

  await ctx.screenshot(page, 'account-payment-history-1280');

  // The receipt is a page of the app (not an address under /api), with its PDF invoice.
  await rows.first().getByRole('link', { name: 'View receipt' }).click();
  await page.waitForURL(/\/account\/payments\/[^/]+\/receipt$/);
  await page.getByRole('heading', { name: 'Receipt', level: 1 }).waitFor();
  const receiptText = ((await page.locator('.receipt__sheet').textContent()) ?? '').replace(/\u00a0/g, ' ');
  check(receiptText.includes(paid[1]!.shown), `the receipt does not show ${paid[1]!.shown}`);
  check(/Invoice no\.INV-\d{4}-\d{6}/.test(receiptText), `the receipt has no invoice number: "${receiptText}"`);
  await ctx.screenshot(page, 'account-receipt-1280');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-pdf').click()]);
  check(
    /^invoice-INV-\d{4}-\d{6}\.pdf$/.test(download.suggestedFilename()),
    `the invoice downloads as ${download.suggestedFilename()}`,
  );
  const pdf = pdfText(fs.readFileSync(await download.path()));
  check(pdf.replace(/\u00a0/g, ' ').includes(paid[1]!.shown), `the PDF invoice does not show ${paid[1]!.shown}`);
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
  check(overflow <= 0, `the receipt scrolls sideways by ${overflow}px on a phone`);
  await ctx.screenshot(page, 'account-receipt-390');
});

test('change password (rule and mismatch messages) then sign in with the new one', async ({ ctx }) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'password');
  await signIn(page, email);
  await page.goto('/account/change-password');
  const form = page.locator('form.password-form');
  await form.getByRole('button', { name: 'Update password' }).click();
  await form.getByText('Current password is required').waitFor();
  await form.locator('input[name="current_password"]').fill(PASSWORD);
  await form.locator('input[name="password"]').fill('short');
  await form.getByRole('button', { name: 'Update password' }).click();
  await form.getByText('Password must be 6-12 characters long').waitFor();
  await form.locator('input[name="password"]').fill('Newpass34');
  await form.locator('input[name="password_confirmation"]').fill('Newpass35');
  await form.getByRole('button', { name: 'Update password' }).click();
  await form.getByText('Passwords do not match').first().waitFor();
  await form.locator('input[name="current_password"]').fill('Wrong999x');
  await form.locator('input[name="password_confirmation"]').fill('Newpass34');
  await form.getByRole('button', { name: 'Update password' }).click();
  await form.getByText('The current password is incorrect.').waitFor();
  await form.locator('input[name="current_password"]').fill(PASSWORD);
  await form.getByRole('button', { name: 'Update password' }).click();
  await page.getByText('Password updated successfully').waitFor();
  await ctx.screenshot(page, 'account-change-password-1280');

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('These credentials do not match our records.').waitFor();
  // The form ignores submits for 300 ms after a failure; leave margin for a busy CI host.
  await page.waitForTimeout(800);
  await page.locator('input[name="password"]').fill('Newpass34');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/account/profile');
});

test('the profile shows the account, saves edits, shows server errors per field and re-fetches', async ({ ctx }) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'profile');
  await signIn(page, email);
  await page.goto('/account/profile');
  await page.getByTestId('profile-email').getByText(email).waitFor();
  const joined = await text(page.getByTestId('profile-joined'));
  check(/^Member since[A-Z][a-z]{2} \d{1,2}, \d{4}$/.test(joined), `join date reads "${joined}"`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('City').fill('Hamburg');
  await page.getByLabel('Phone Number').fill('+49 12');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Please enter a valid phone number').waitFor();
  await page.getByLabel('Phone Number').fill('+49 151 23456789');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Profile updated').waitFor();
  await page.getByTestId('profile-city').getByText('Hamburg').waitFor();
});

/** Pricing, both modals and the three payment pages at 360 and 1280 px, saved under e2e/artifacts/. */
test('screenshots: pricing, Buy Tokens, Confirm Information and the payment pages at 360 and 1280 px without sideways scrolling', async ({
  ctx,
}) => {
  const holder = await ctx.newPage();
  const email = await verifiedAccount(ctx, holder, 'screens');
  for (const width of [360, 1280]) {
    const page = await ctx.newPage({ width, height: 900 });
    // Consent given, so the cookie banner does not cover the pictures.
    await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
    const noSidewaysScroll = async (what: string) => {
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      check(Number(overflow) <= 0, `${what} at ${width}px scrolls sideways by ${overflow}px`);
    };
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    await page.locator('[data-testid^="pack-"]').first().waitFor();
    await noSidewaysScroll('pricing');
    await ctx.screenshot(page, `pricing-${width}`);

    await signIn(page, email);
    await page.goto('/pricing');
    await page.getByTestId('custom-buy').click();
    const buy = page.getByRole('dialog', { name: 'Buy Tokens' });
    await buy.waitFor();
    await buy.getByRole('checkbox').check();
    await ctx.screenshot(page, `buy-tokens-modal-${width}`);
    await buy.getByRole('button', { name: 'Credit/Debit card' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Information' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'CONFIRM PAYMENT' }).click();
    await confirm.getByText('City is required').waitFor();
    await ctx.screenshot(page, `confirm-information-modal-${width}`);
    await confirm.getByRole('button', { name: 'BACK' }).click();
    await buy.waitFor();
    check(await buy.getByRole('checkbox').isChecked(), 'BACK lost the terms acceptance');

    // The success page shows a real, paid order (without one it sends home).
    await buy.getByRole('button', { name: 'Credit/Debit card' }).click();
    await fillBilling(confirm);
    await confirmPayment(page, confirm);
    await page.locator('button[data-outcome="paid"]').click();
    await page.waitForURL((url) => url.pathname === '/success-payment' && url.searchParams.has('order'));
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await noSidewaysScroll('payment-success');
    await ctx.screenshot(page, `payment-success-${width}`);

    for (const [name, path, heading] of [
      ['payment-fail', '/fail-payment?error=Your%20card%20was%20declined.', 'Payment Failed'],
      ['payment-processing', '/processing-payment?order_id=3f1c2a9e-0000-4000-8000-000000000000', 'Payment Processing'],
      ['payment-pending', '/pending-payment', 'Payment Processing'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      await noSidewaysScroll(name);
      await ctx.screenshot(page, `${name}-${width}`);
    }
    // Check Status: busy text, then the "Status checked" line.
    await page.getByRole('button', { name: 'Check Status' }).click();
    await page.getByText('Status checked. If payment completed, your balance has been updated.').waitFor();
  }
});
