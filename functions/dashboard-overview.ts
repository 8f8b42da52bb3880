import { dashboardOverviewPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { overviewPage } from '../shared/dashboard/pages/overview';

export const handler = pageFunction(dashboardOverviewPages, { DashboardOverview: overviewPage }, { session: sessionOf });
