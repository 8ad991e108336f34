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
 * The HTML receipt of one of the user's successful payments in `lang` (404 for anyone else's or an
 * unpaid one).
 */
export async function receiptHtml(
  payments: Payments,
  userId: string,
  depositId: string,
  lang: string,
): Promise<string> {
  const deposit = await findOwnDeposit(payments, userId, depositId);
  if (deposit.status !== 'Success') throw notFound('Receipt not found.');
  return renderReceipt(deposit, await getSettings(payments.ctx), await billingTexts(payments.ctx, lang), lang);
}
