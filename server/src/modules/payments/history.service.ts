import {
  fromMinorUnits,
  type PaymentHistoryItem,
  type PaymentHistoryPage,
  tenthsToTokens,
} from '@imagestudio/contracts';
import { notFound } from '../../lib/errors';
import { getSettings } from '../catalog';
import * as repo from './deposits.repository';
import type { Deposit } from './deposits.repository';
import { findOwnDeposit } from './deposits.service';
import type { Payments } from './payments.context';
import { billingTexts } from './billing-texts';
import { renderReceipt } from './receipt.page';
import { receiptDocument } from './receipt-document';
import { invoicePdf } from './invoice-pdf';

export const HISTORY_PAGE_SIZE = 20;

function presentItem(d: Deposit): PaymentHistoryItem {
  return {
    id: d.id,
    date: new Date(d.created_at).toISOString(),
    status: d.status,
    pack: d.pack_title,
    tokens: tenthsToTokens(d.tokens_tenths),
    amount: fromMinorUnits(d.amount_minor, d.currency),
    currency: d.currency,
    method: d.payment_method_title,
    has_receipt: d.status === 'Success',
  };
}

/** GET /api/user/payment-history?page=: the user's deposits, newest first, 20 a page. */
export async function paymentHistory(payments: Payments, userId: string, page: number): Promise<PaymentHistoryPage> {
  const { rows, total } = await repo.listUserDeposits(payments.ctx.db, userId, page, HISTORY_PAGE_SIZE);
  return {
    items: rows.map(presentItem),
    page,
    per_page: HISTORY_PAGE_SIZE,
    total,
    last_page: Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE)),
  };
}

/**
 * The receipt of one of the user's successful payments in `lang`, as a document the receipt page draws
 * (404 for anyone else's or an unpaid one).
 */
export async function ownReceipt(payments: Payments, userId: string, depositId: string, lang: string) {
  const deposit = await findOwnDeposit(payments, userId, depositId);
  if (deposit.status !== 'Success') throw notFound('Receipt not found.');
  const text = await billingTexts(payments.ctx, lang);
  return {
    document: receiptDocument(deposit, await getSettings(payments.ctx), text, lang),
    paidAt: new Date(deposit.completed_at ?? deposit.created_at),
  };
}

/** The receipt as a printable HTML page (the operator console's view of a customer's receipt). */
export async function receiptHtml(
  payments: Payments,
  userId: string,
  depositId: string,
  lang: string,
): Promise<string> {
  return renderReceipt((await ownReceipt(payments, userId, depositId, lang)).document);
}

/** The receipt as a PDF invoice, with the name it downloads as ("invoice-INV-2026-000042.pdf"). */
export async function invoiceFile(payments: Payments, userId: string, depositId: string, lang: string) {
  const { document, paidAt } = await ownReceipt(payments, userId, depositId, lang);
  return {
    name: `invoice-${document.invoice.value || document.order.value}.pdf`,
    data: await invoicePdf(document, paidAt),
  };
}
