import { addEnglish } from '../../lib/i18n';
import { clientAdmin } from '../../lib/i18n/messages/client-admin';

// The console's English texts arrive with its pages (customers never download them).
addEnglish(clientAdmin);

export { AdminLayout } from './admin-layout';
export { OverviewPage } from './overview-page';
export { JobsPage } from './jobs-page';
export { JobDetailPage } from './job-detail-page';
export { UsersPage } from './users-page';
export { UserDetailPage } from './user-detail-page';
export { PaymentsPage } from './payments-page';
export { CatalogPage } from './catalog-page';
export { AuditPage } from './audit-page';
