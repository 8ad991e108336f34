export { SuccessPaymentPage } from './success-payment-page';
export { FailPaymentPage } from './fail-payment-page';
export { CancelledPaymentPage } from './cancelled-payment-page';
export { ProcessingPaymentPage } from './processing-payment-page';
