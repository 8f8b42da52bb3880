import { pageFunction } from '../shared/dashboard/page-function';
import { guestErrorPage } from '../shared/guest/layout';
import { confirmationAction, createAction, detailsAction, qrCodeAction, searchAction, stylesheetAction } from '../shared/guest/pages';

export const handler = pageFunction(
  'GuestBooking',
  {
    GuestBookingSearch: searchAction,
    GuestBookingDetails: detailsAction,
    GuestBookingCreate: createAction,
    GuestBookingConfirmation: confirmationAction,
    GuestBookingQrCode: qrCodeAction,
    GuestBookingStylesheet: stylesheetAction,
  },
  { errorPage: guestErrorPage },
);
