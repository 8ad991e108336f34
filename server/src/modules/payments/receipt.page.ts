import escapeHtml from 'escape-html';
import { formatMoney, fromMinorUnits, localeFor, tenthsToTokens, type Settings } from '@imagestudio/contracts';
import { normalizePhone } from '../../lib/phone';
import type { BillingText } from './billing-texts';
import type { Deposit } from './deposits.repository';

/** An amount in the reader's number style with its currency, a zero one too ("€0.00", "0,00 €"). */
const money = (minor: number, currency: string, lang: string) =>
  escapeHtml(formatMoney(fromMinorUnits(minor, currency), currency, `${currency} `, localeFor(lang)));
const row = (label: string, value: string, attr = '') =>
  `<tr${attr}><td>${label}</td><td style="text-align:right">${value}</td></tr>`;

/** The buyer's phone in international form: stored at checkout, or read again for older deposits. */
function internationalPhone(billing: Deposit['billing']): string {
  return billing.phone_e164 ?? normalizePhone(billing.phone) ?? billing.phone;
}

/**
 * A printable HTML receipt in the reader's language: the invoice number of the seller's sequence, the
 * seller (company details from settings), the buyer (billing data as entered at checkout, the phone in
 * international form), what was bought, the subtotal, the VAT line and the total charged, each naming
 * its currency, and any refund. Every value is escaped: billing fields are customer input.
 */
export function renderReceipt(deposit: Deposit, settings: Settings, text: BillingText, lang: string): string {
  const b = deposit.billing;
  const paidAt = deposit.completed_at ?? deposit.created_at;
  const e = (v: unknown) => escapeHtml(String(v ?? ''));
  const currency = deposit.currency;
  const tokens = text('receipt.tokens', { n: tenthsToTokens(deposit.tokens_tenths) });
  return `<!doctype html>
<html lang="${e(lang)}"><head><meta charset="utf-8"><title>${e(text('receipt.title'))} ${e(deposit.invoice_number ?? deposit.id)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:40px auto;padding:0 16px">
  <h1 style="font-size:22px">${e(text('receipt.title'))}</h1>
  <p>${e(text('receipt.invoiceNumber'))} <span data-field="invoice">${e(deposit.invoice_number ?? '')}</span><br>
  ${e(text('receipt.order'))} <span data-field="id">${e(deposit.id)}</span><br>
  ${e(text('receipt.date'))}: ${e(new Date(paidAt).toISOString().slice(0, 10))}</p>
  <section data-section="seller"><h2 style="font-size:16px">${e(text('receipt.seller'))}</h2>
    <p>${e(settings.company_name)}<br>${e(settings.company_address)}<br>${e(text('receipt.regNo'))} ${e(settings.company_reg_number)}<br>${e(settings.requisites)}<br>${e(settings.support_email)}</p>
  </section>
  <section data-section="buyer"><h2 style="font-size:16px">${e(text('receipt.buyer'))}</h2>
    <p>${e(`${b.name} ${b.surname}`.trim())}<br>${e(b.email)}<br><span data-field="phone">${e(internationalPhone(b))}</span><br>${e(b.address)}<br>${e(b.post_code)} ${e(b.city)}<br>${e(b.country)}</p>
  </section>
  <table style="width:100%;border-collapse:collapse">
    ${row(e(deposit.pack_title ?? tokens), e(tokens))}
    ${row(e(text('receipt.paymentMethod')), e(deposit.payment_method_title))}
    ${row(e(text('receipt.subtotal')), money(deposit.net_minor, currency, lang), ' data-line="subtotal"')}
    ${row(e(text('receipt.vat', { percent: Number(deposit.vat_percent), currency })), money(deposit.vat_minor, currency, lang), ' data-line="vat"')}
    <tr data-line="total"><th style="text-align:left">${e(text('receipt.total', { currency }))}</th><th style="text-align:right">${money(deposit.amount_minor, currency, lang)}</th></tr>
    ${deposit.refunded_minor > 0 ? row(e(text('receipt.refunded', { currency })), money(deposit.refunded_minor, currency, lang), ' data-line="refunded"') : ''}
  </table>
</body></html>`;
}
