export { SuccessPaymentPage } from './success-payment-page';
export { FailPaymentPage } from './fail-payment-page';
export { ProcessingPaymentPage } from './processing-payment-page';
