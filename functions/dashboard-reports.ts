import { dashboardReportsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { reportCsv, reportsPage } from '../shared/dashboard/pages/reports';

export const handler = pageFunction(dashboardReportsPages, { DashboardReports: reportsPage, DashboardReportCsv: reportCsv }, { session: sessionOf });
