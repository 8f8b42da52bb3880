import { pageFunction } from '../shared/dashboard/page-function';
import { deliveriesPage, deliveryPage, retryDeliveryAction, retryFailedAction } from '../shared/dashboard/pages/deliveries';

export const handler = pageFunction('DashboardDeliveries', {
  DashboardDeliveries: deliveriesPage,
  DashboardDelivery: deliveryPage,
  DashboardRetryDelivery: retryDeliveryAction,
  DashboardRetryFailed: retryFailedAction,
});
