import { dashboardBookingsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { assignRoom, assignRoomForm, bookingPage } from '../shared/dashboard/pages/booking-detail';
import { bookingsPage } from '../shared/dashboard/pages/bookings';
import { createBooking, newBookingForm } from '../shared/dashboard/pages/reception-booking';
import { searchPage } from '../shared/dashboard/pages/search';

export const handler = pageFunction(dashboardBookingsPages, {
  DashboardBookings: bookingsPage,
  DashboardSearch: searchPage,
  DashboardNewBookingForm: newBookingForm,
  DashboardNewBooking: createBooking,
  DashboardBooking: bookingPage,
  DashboardAssignRoomForm: assignRoomForm,
  DashboardAssignRoom: assignRoom,
}, { session: sessionOf });
