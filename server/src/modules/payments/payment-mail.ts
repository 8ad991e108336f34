import { formatPrice, fromMinorUnits, localeFor, tenthsToTokens } from '@imagestudio/contracts';
import { escapeHtml, type MailMessage } from '../mail';
import { billingTexts } from './billing-texts';
import * as repo from './deposits.repository';
import type { Deposit } from './deposits.repository';
import type { Payments } from './payments.context';

/** Where the customer opens a deposit's receipt: the printable receipt page, with the PDF invoice (signed in). */
export function receiptUrl(payments: Payments, depositId: string): string {
  return `${payments.ctx.config.APP_URL}/account/payments/${depositId}/receipt`;
}

async function message(
  payments: Payments,
  deposit: Deposit,
  kind: 'paid' | 'refund',
  amountMinor: number,
): Promise<MailMessage> {
  const text = await billingTexts(payments.ctx, deposit.lang);
  const link = receiptUrl(payments, deposit.id);
  const values = {
    amount: formatPrice(fromMinorUnits(amountMinor, deposit.currency), deposit.currency, '', localeFor(deposit.lang)),
    tokens: tenthsToTokens(deposit.tokens_tenths),
    invoice: deposit.invoice_number ?? deposit.id,
    link,
  };
  const body = text(`mail.${kind}.text`, values);
  const html = `<p>${escapeHtml(text(`mail.${kind}.text`, { ...values, link: '' })).replace(/\n/g, '<br>')}<a href="${escapeHtml(link)}">${escapeHtml(text('mail.receiptLink'))}</a></p>`;
  return {
    to: deposit.billing.email,
    subject: text(`mail.${kind}.subject`, values),
    text: body,
    html,
    links: { receipt: link },
  };
}

/**
 * The confirmation of a paid deposit, in the language the customer checked out in, with a link to its
 * receipt. Sent in the background once the payment is committed; a mail failure never undoes it.
 */
export async function sendPaidMail(payments: Payments, depositId: string): Promise<void> {
  const deposit = await repo.findDeposit(payments.ctx.db, depositId);
  if (!deposit || deposit.status !== 'Success' || !deposit.billing.email) return;
  payments.ctx.services.mailer.dispatch(await message(payments, deposit, 'paid', deposit.amount_minor));
}

/** The notice of a refund of `refundedMinor` (this refund, not the running total) of a paid deposit. */
export async function sendRefundMail(payments: Payments, depositId: string, refundedMinor: number): Promise<void> {
  const deposit = await repo.findDeposit(payments.ctx.db, depositId);
  if (!deposit || refundedMinor <= 0 || !deposit.billing.email) return;
  payments.ctx.services.mailer.dispatch(await message(payments, deposit, 'refund', refundedMinor));
}
