import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { overviewPage } from '../shared/dashboard/pages/overview';

export const handler = pageFunction('DashboardOverview', { DashboardOverview: overviewPage }, { session: sessionOf });
