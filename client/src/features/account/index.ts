export { AccountLayout } from './account-layout';
export { ProfileTab, PendingTab } from './account-tabs';
