import { CHECKOUT_MESSAGES } from '@imagestudio/contracts';
import { AMOUNT_MISMATCH } from './fulfilment.service';

/** The error a declined test payment records on its deposit. */
export const TEST_DECLINED = 'Your card was declined.';

/**
 * The code /fail-payment gets for a deposit's stored error. The page shows its own text for each code and
 * never text from the address, so a link with made-up words in it shows only the general advice.
 */
export function failCode(
  error: string | null,
): 'card_declined' | 'checkout_failed' | 'amount_mismatch' | 'payment_failed' {
  if (error === TEST_DECLINED) return 'card_declined';
  if (error === CHECKOUT_MESSAGES.checkoutFailed) return 'checkout_failed';
  if (error === AMOUNT_MISMATCH) return 'amount_mismatch';
  return 'payment_failed';
}
