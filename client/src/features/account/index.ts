import { addEnglish } from '../../lib/i18n';
// The stores only signed-in or paying visitors use come with these pages, not with the home page.
import '../../stores/signed-in-stores';
import { clientPayments } from '../../lib/i18n/messages/client-payments';
import { clientDeveloper } from '../../lib/i18n/messages/client-developer';

// The English texts of these pages arrive with them (the first bundle carries only what the home page shows).
addEnglish(clientPayments);
addEnglish(clientDeveloper);

export { AccountLayout } from './account-layout';
export { ProfileTab } from './profile-tab';
export { PaymentHistoryTab } from './payment-history-tab';
export { ReceiptPage } from './receipt-page';
export { ChangePasswordTab } from './change-password-tab';
