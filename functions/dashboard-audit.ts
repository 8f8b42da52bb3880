import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { auditPage } from '../shared/dashboard/pages/audit';

export const handler = pageFunction('DashboardAudit', {
  DashboardAudit: auditPage,
}, { session: sessionOf });
