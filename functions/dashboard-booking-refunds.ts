import { dashboardBookingRefundsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { refundBooking, refundBookingPage } from '../shared/dashboard/pages/booking-detail';

export const handler = pageFunction(dashboardBookingRefundsPages, { DashboardRefundBookingPage: refundBookingPage, DashboardRefundBooking: refundBooking }, { session: sessionOf });
