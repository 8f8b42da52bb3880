import { guestBookingPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { qrCodeAction, robotsAction, stylesheetAction } from '../shared/guest/assets';
import { confirmationAction } from '../shared/guest/confirmation-page';
import { confirmLinkAction, confirmLinkSubmitAction } from '../shared/guest/confirm-link-pages';
import { createAction, detailsAction } from '../shared/guest/details-page';
import { guestErrorPage } from '../shared/guest/layout';
import { searchAction } from '../shared/guest/search-page';
import { checkoutOrigins } from '../shared/payments/checkout-origins';

export const handler = pageFunction(guestBookingPages,
  {
    GuestBookingSearch: searchAction,
    GuestBookingDetails: detailsAction,
    GuestBookingCreate: createAction,
    GuestBookingConfirmation: confirmationAction,
    GuestBookingQrCode: qrCodeAction,
    GuestBookingStylesheet: stylesheetAction,
    GuestBookingRobots: robotsAction,
    GuestBookingConfirmLink: confirmLinkAction,
    GuestBookingConfirmLinkSubmit: confirmLinkSubmitAction,
  },
  // Its booking form is answered with a redirect to the provider's checkout, on the provider's origin.
  // Room pictures (a category's image_url) are on the hotel's own https hosts.
  { errorPage: guestErrorPage, formLeadsTo: checkoutOrigins, imagesFrom: ['https:'] },
);
