import { addEnglish } from '../../lib/i18n';
// The stores only signed-in or paying visitors use come with these pages, not with the home page.
import '../../stores/signed-in-stores';
import { clientPayments } from '../../lib/i18n/messages/client-payments';

// The English texts of these pages arrive with them (the first bundle carries only what the home page shows).
addEnglish(clientPayments);

export { SuccessPaymentPage } from './success-payment-page';
export { FailPaymentPage } from './fail-payment-page';
export { CancelledPaymentPage } from './cancelled-payment-page';
export { ProcessingPaymentPage } from './processing-payment-page';
