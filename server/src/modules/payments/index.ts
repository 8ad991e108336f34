/** What other modules may use of payments; everything else in this folder is internal. */
export { type Deposit, findDeposit, listUserDeposits } from './deposits.repository';
export { depositsRouter } from './deposits.routes';
export { paymentHistoryRouter } from './history.routes';
export { receiptHtml } from './history.service';
export { createPayments, type Payments, paymentsFor } from './payments.context';
export { paymentsReconcilerTask } from './reconciler';
export { testCheckoutRouter } from './test-checkout.routes';
export { stripeWebhookRouter } from './webhooks.routes';
