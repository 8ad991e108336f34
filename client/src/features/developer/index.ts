import { addEnglish } from '../../lib/i18n';
// The stores only signed-in or paying visitors use come with these pages, not with the home page.
import '../../stores/signed-in-stores';
import { clientDeveloper } from '../../lib/i18n/messages/client-developer';

// The English texts of these pages arrive with them (the first bundle carries only what the home page shows).
addEnglish(clientDeveloper);

export { TokenActivityTab } from './token-activity-tab';
export { ApiKeysTab } from './api-keys-tab';
export { DevelopersPage } from './developers-page';
