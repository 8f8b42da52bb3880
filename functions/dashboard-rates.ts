import { dashboardRatesPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { ratesPage, setRatesAction } from '../shared/dashboard/pages/rates';

export const handler = pageFunction(dashboardRatesPages, { DashboardRates: ratesPage, DashboardSetRates: setRatesAction }, { session: sessionOf });
