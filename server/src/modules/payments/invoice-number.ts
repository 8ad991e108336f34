import type { Knex } from 'knex';
import { readSettingRows } from '../catalog';
import { nextInvoiceSequence } from './deposits.repository';

/**
 * Invoice numbers: one gapless sequence per seller and calendar year (UTC), written INV-2026-000123.
 * The seller is the company as configured in settings (its registration number, else its name), so a
 * change of company starts its own sequence.
 */
export async function assignInvoiceNumber(trx: Knex.Transaction, paidAt: Date): Promise<string> {
  const settings = await readSettingRows(trx);
  const text = (key: string) => {
    const value = settings.get(key);
    return typeof value === 'string' ? value.trim() : '';
  };
  const seller = text('company_reg_number') || text('company_name') || 'default';
  const year = paidAt.getUTCFullYear();
  const n = await nextInvoiceSequence(trx, seller, year);
  return `INV-${year}-${String(n).padStart(6, '0')}`;
}
