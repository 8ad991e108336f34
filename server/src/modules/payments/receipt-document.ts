import {
  formatMoney,
  fromMinorUnits,
  localeFor,
  tenthsToTokens,
  type ReceiptDocument,
  type Settings,
} from '@imagestudio/contracts';
import { normalizePhone } from '../../lib/phone';
import type { BillingText } from './billing-texts';
import type { Deposit } from './deposits.repository';

/** The buyer's phone in international form: stored at checkout, or read again for older deposits. */
function internationalPhone(billing: Deposit['billing']): string {
  return billing.phone_e164 ?? normalizePhone(billing.phone) ?? billing.phone;
}

/** Lines of an address block without the empty ones (an optional field left blank is not a blank line). */
const filled = (lines: (string | null | undefined)[]) => lines.map((l) => (l ?? '').trim()).filter(Boolean);

/**
 * The receipt of a paid deposit in `lang`: the invoice number of the seller's sequence, the seller (company
 * details from settings), the buyer (billing data as entered at checkout, the phone in international form),
 * what was bought, the subtotal, the VAT line and the total, each amount in the locale's style with its
 * currency, and any refund. Values are customer input: whoever draws the document escapes them.
 */
export function receiptDocument(
  deposit: Deposit,
  settings: Settings,
  text: BillingText,
  lang: string,
): ReceiptDocument {
  const b = deposit.billing;
  const locale = localeFor(lang);
  const currency = deposit.currency;
  const money = (minor: number) => formatMoney(fromMinorUnits(minor, currency), currency, `${currency} `, locale);
  const tokens = text('receipt.tokens', { n: tenthsToTokens(deposit.tokens_tenths) });
  const paidAt = new Date(deposit.completed_at ?? deposit.created_at);
  const rows: ReceiptDocument['rows'] = [
    { key: 'item', label: deposit.pack_title ?? tokens, value: tokens },
    { key: 'method', label: text('receipt.paymentMethod'), value: deposit.payment_method_title ?? '' },
    { key: 'subtotal', label: text('receipt.subtotal'), value: money(deposit.net_minor) },
    {
      key: 'vat',
      label: text('receipt.vat', { percent: Number(deposit.vat_percent), currency }),
      value: money(deposit.vat_minor),
    },
    { key: 'total', label: text('receipt.total', { currency }), value: money(deposit.amount_minor) },
  ];
  if (deposit.refunded_minor > 0)
    rows.push({ key: 'refunded', label: text('receipt.refunded', { currency }), value: money(deposit.refunded_minor) });
  return {
    lang,
    title: text('receipt.title'),
    invoice: { label: text('receipt.invoiceNumber'), value: deposit.invoice_number ?? '' },
    order: { label: text('receipt.order'), value: deposit.id },
    date: { label: text('receipt.date'), value: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(paidAt) },
    seller: {
      heading: text('receipt.seller'),
      lines: filled([
        settings.company_name,
        settings.company_address,
        settings.company_reg_number ? `${text('receipt.regNo')} ${settings.company_reg_number}` : null,
        settings.requisites,
        settings.support_email,
      ]),
    },
    buyer: {
      heading: text('receipt.buyer'),
      lines: filled([
        `${b.name} ${b.surname}`,
        b.email,
        internationalPhone(b),
        b.address,
        `${b.post_code ?? ''} ${b.city ?? ''}`,
        b.country,
      ]),
    },
    rows,
  };
}
