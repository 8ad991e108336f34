import escapeHtml from 'escape-html';
import { formatPrice, fromMinorUnits, type Settings } from '@imagestudio/contracts';
import type { Deposit } from './deposits.repository';
import { depositTitle } from './stripe-checkout';

const money = (minor: number, currency: string) => escapeHtml(formatPrice(fromMinorUnits(minor, currency), currency) || '0.00');
const row = (label: string, value: string, attr = '') => `<tr${attr}><td>${label}</td><td style="text-align:right">${value}</td></tr>`;

/**
 * A printable HTML receipt: the seller (company details from settings), the buyer (billing data as
 * entered at checkout), what was bought, the subtotal, the VAT line and the total actually charged.
 * Every value is escaped: billing fields are customer input.
 */
export function renderReceipt(deposit: Deposit, settings: Settings): string {
  const b = deposit.billing;
  const paidAt = deposit.completed_at ?? deposit.created_at;
  const e = (v: unknown) => escapeHtml(String(v ?? ''));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt ${e(deposit.id)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:40px auto;padding:0 16px">
  <h1 style="font-size:22px">Receipt</h1>
  <p>Receipt no. <span data-field="id">${e(deposit.id)}</span><br>Date: ${e(new Date(paidAt).toISOString().slice(0, 10))}<br>Status: ${e(deposit.status)}</p>
  <section data-section="seller"><h2 style="font-size:16px">Seller</h2>
    <p>${e(settings.company_name)}<br>${e(settings.company_address)}<br>Reg. no. ${e(settings.company_reg_number)}<br>${e(settings.requisites)}<br>${e(settings.support_email)}</p>
  </section>
  <section data-section="buyer"><h2 style="font-size:16px">Billed to</h2>
    <p>${e(`${b.name} ${b.surname}`.trim())}<br>${e(b.email)}<br>${e(b.phone)}<br>${e(b.address)}<br>${e(b.post_code)} ${e(b.city)}<br>${e(b.country)}</p>
  </section>
  <table style="width:100%;border-collapse:collapse">
    ${row(e(depositTitle(deposit)), `${deposit.tokens_tenths / 10} tokens`)}
    ${row('Payment method', e(deposit.payment_method_title))}
    ${row('Subtotal', money(deposit.net_minor, deposit.currency), ' data-line="subtotal"')}
    ${row(`VAT (${e(Number(deposit.vat_percent))}%)`, money(deposit.vat_minor, deposit.currency), ' data-line="vat"')}
    <tr data-line="total"><th style="text-align:left">Total</th><th style="text-align:right">${money(deposit.amount_minor, deposit.currency)}</th></tr>
  </table>
</body></html>`;
}
