import { guestCancelPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { cancelAction, cancelPageAction } from '../shared/guest/cancel-pages';
import { guestErrorPage } from '../shared/guest/layout';

export const handler = pageFunction(guestCancelPages, { GuestBookingCancelPage: cancelPageAction, GuestBookingCancel: cancelAction }, { errorPage: guestErrorPage });
