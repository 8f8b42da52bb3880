import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { paymentPage, paymentsPage, refundPayment } from '../shared/dashboard/pages/payments';

export const handler = pageFunction('DashboardPayments', {
  DashboardPayments: paymentsPage,
  DashboardPayment: paymentPage,
  DashboardRefundOrder: refundPayment,
}, { session: sessionOf });
