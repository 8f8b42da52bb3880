import { dashboardDeliveriesPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { deliveriesPage, deliveryPage, retryDeliveryAction, retryFailedAction } from '../shared/dashboard/pages/deliveries';

export const handler = pageFunction(dashboardDeliveriesPages, {
  DashboardDeliveries: deliveriesPage,
  DashboardDelivery: deliveryPage,
  DashboardRetryDelivery: retryDeliveryAction,
  DashboardRetryFailed: retryFailedAction,
}, { session: sessionOf });
