import { dashboardPaymentsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { paymentPage, paymentsPage, refundPayment, refundPaymentPage } from '../shared/dashboard/pages/payments';

export const handler = pageFunction(dashboardPaymentsPages, {
  DashboardPayments: paymentsPage,
  DashboardPayment: paymentPage,
  DashboardRefundOrderPage: refundPaymentPage,
  DashboardRefundOrder: refundPayment,
}, { session: sessionOf });
