import { dashboardAuditPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { auditPage } from '../shared/dashboard/pages/audit';

export const handler = pageFunction(dashboardAuditPages, {
  DashboardAudit: auditPage,
}, { session: sessionOf });
