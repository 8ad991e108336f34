import { paths } from '../../config/paths';
import type { DepositStatus } from '../../stores';

/**
 * The page for a deposit in `status` (the server's redirects use the same addresses): success, fail with the
 * general `payment_failed` code, cancelled or expired (nothing charged), or the processing page while it is
 * still open.
 */
export function resultPath(order: string, status: DepositStatus): string {
  const id = encodeURIComponent(order);
  if (status === 'Success') return `${paths.successPayment}?order=${id}`;
  if (status === 'Error') return `${paths.failPayment}?order=${id}&error=payment_failed`;
  if (status === 'Cancelled') return `${paths.cancelledPayment}?order=${id}`;
  if (status === 'Expired') return `${paths.cancelledPayment}?order=${id}&expired=1`;
  return `${paths.processingPayment}?order_id=${id}`;
}
