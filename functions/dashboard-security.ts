import { dashboardSecurityPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { enableTotpAction, securityPage, startTotp } from '../shared/dashboard/pages/security';

export const handler = pageFunction(dashboardSecurityPages, {
  DashboardSecurity: securityPage,
  DashboardStartTotp: startTotp,
  DashboardEnableTotp: enableTotpAction,
}, { session: sessionOf });
