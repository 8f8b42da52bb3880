import { dashboardBookingChangesPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { cancelBookingAction, cancelBookingPage } from '../shared/dashboard/pages/booking-cancel';
import { changeBooking, changeBookingForm, markNoShowAction } from '../shared/dashboard/pages/booking-changes';

export const handler = pageFunction(dashboardBookingChangesPages, {
  DashboardChangeBookingForm: changeBookingForm,
  DashboardChangeBooking: changeBooking,
  DashboardCancelBookingPage: cancelBookingPage,
  DashboardCancelBooking: cancelBookingAction,
  DashboardMarkNoShow: markNoShowAction,
}, { session: sessionOf });
