import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { assignRoom, assignRoomForm, bookingPage, bookingsPage, createBooking, newBookingForm } from '../shared/dashboard/pages/bookings';

export const handler = pageFunction('DashboardBookings', {
  DashboardBookings: bookingsPage,
  DashboardNewBookingForm: newBookingForm,
  DashboardNewBooking: createBooking,
  DashboardBooking: bookingPage,
  DashboardAssignRoomForm: assignRoomForm,
  DashboardAssignRoom: assignRoom,
}, { session: sessionOf });
