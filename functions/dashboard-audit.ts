import { pageFunction } from '../shared/dashboard/page-function';
import { auditPage } from '../shared/dashboard/pages/audit';

export const handler = pageFunction('DashboardAudit', {
  DashboardAudit: auditPage,
});
