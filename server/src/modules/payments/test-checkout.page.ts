import escapeHtml from 'escape-html';
import { formatPrice, fromMinorUnits } from '@imagestudio/contracts';
import type { Deposit } from './deposits.repository';
import { depositTitle } from './stripe-checkout';

export const TEST_OUTCOMES = ['paid', 'declined', 'cancelled'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

const BUTTONS: Record<TestOutcome, string> = {
  paid: 'Pay (test: succeeds)',
  declined: 'Pay (test: card declined)',
  cancelled: 'Cancel payment',
};

const money = (minor: number, currency: string) => escapeHtml(formatPrice(fromMinorUnits(minor, currency), currency));

/**
 * The built-in test checkout page: what is bought, the amounts, and one form per outcome. Plain HTML
 * with inline styles (allowed by the CSP) and no script, so it works everywhere helmet's policy applies.
 */
export function renderTestCheckout(deposit: Deposit, token: string): string {
  const forms = TEST_OUTCOMES.map(
    (outcome) => `<form method="post" action="/api/deposit/test-checkout">
      <input type="hidden" name="order" value="${escapeHtml(deposit.id)}">
      <input type="hidden" name="token" value="${escapeHtml(token)}">
      <input type="hidden" name="outcome" value="${outcome}">
      <button type="submit" data-outcome="${outcome}" style="width:100%;padding:12px;margin-top:8px;font-size:16px">${BUTTONS[outcome]}</button>
    </form>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test checkout</title></head>
<body style="font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px">
  <h1 style="font-size:22px">Test checkout</h1>
  <p style="color:#a15c00">No real payment is made: this page stands in for the card processor.</p>
  <table style="width:100%;border-collapse:collapse">
    <tr><td>Item</td><td style="text-align:right" data-field="item">${escapeHtml(depositTitle(deposit))}</td></tr>
    <tr><td>Tokens</td><td style="text-align:right" data-field="tokens">${deposit.tokens_tenths / 10}</td></tr>
    <tr><td>Subtotal</td><td style="text-align:right">${money(deposit.net_minor, deposit.currency)}</td></tr>
    <tr><td>VAT (${escapeHtml(String(Number(deposit.vat_percent)))}%)</td><td style="text-align:right">${money(deposit.vat_minor, deposit.currency)}</td></tr>
    <tr><th style="text-align:left">Total to pay</th><th style="text-align:right" data-field="total">${money(deposit.amount_minor, deposit.currency)}</th></tr>
  </table>
  ${forms}
</body></html>`;
}
