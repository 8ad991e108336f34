export { TokenActivityTab } from './token-activity-tab';
export { ApiKeysTab } from './api-keys-tab';
export { DevelopersPage } from './developers-page';
