import { addEnglish } from '../../lib/i18n';
import { clientPayments } from '../../lib/i18n/messages/client-payments';

// The English texts of these pages arrive with them (the first bundle carries only what the home page shows).
addEnglish(clientPayments);

export { SuccessPaymentPage } from './success-payment-page';
export { FailPaymentPage } from './fail-payment-page';
export { CancelledPaymentPage } from './cancelled-payment-page';
export { ProcessingPaymentPage } from './processing-payment-page';
