import { dashboardBookingRefundsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { refundBooking } from '../shared/dashboard/pages/booking-detail';

export const handler = pageFunction(dashboardBookingRefundsPages, { DashboardRefundBooking: refundBooking }, { session: sessionOf });
