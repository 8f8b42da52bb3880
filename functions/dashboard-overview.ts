import { pageFunction } from '../shared/dashboard/page-function';
import { overviewPage } from '../shared/dashboard/pages/overview';

export const handler = pageFunction('DashboardOverview', { DashboardOverview: overviewPage });
