export { AccountLayout } from './account-layout';
export { ProfileTab } from './profile-tab';
export { PaymentHistoryTab } from './payment-history-tab';
export { ChangePasswordTab } from './change-password-tab';
