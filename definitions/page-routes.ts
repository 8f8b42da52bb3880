/**
 * The route table's pages for people: the hotel dashboard and the guest booking pages, HTML for a
 * browser, left out of the API document (`page: true`). One function serves each page resource
 * and its forms; the stack and the local gateway serve these routes as they serve the API's.
 */
import { guestBookingTableAccess } from './guest-booking-access';
import { REFUND_WRITES, type RouteAccess } from './route-access';
import type { Route, RouteAuth } from './routes';

/** A page resource: one function serving a page and its forms (dashboard, guest booking). */
interface PageResource {
  function: string;
  handler: string;
  auth: Extract<RouteAuth, { kind: 'dashboard' | 'public' }>;
  access: RouteAccess;
  description: string;
  /** [route id, method, path] */
  routes: readonly (readonly [string, Route['method'], string])[];
}

function pageRoutes(resource: PageResource): Route[] {
  return resource.routes.map(([id, method, path]) => ({
    id,
    method,
    path,
    function: resource.function,
    handler: resource.handler,
    auth: resource.auth,
    access: resource.access,
    description: resource.description,
    page: true as const,
  }));
}

/**
 * A page that shows a paid order and refunds it (the Payments page's, the booking page's): the
 * refund reserved and recorded on the order, asked of the provider (the sandbox's records,
 * Stripe's key), payment_order.refunded queued, the guest e-mailed (REFUND_WRITES), the audit
 * entry (CLIENT#); the order, the booking and their story read.
 */
const staffRefundAccess: RouteAccess = {
  dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi1', 'gsi2'], writes: ['CLIENT#', ...REFUND_WRITES] },
  enqueuesCallbacks: true,
  sendsEmail: true,
  providerSecrets: ['stripeSecretKey'],
};

/** The pages of DashboardSession. */
export const dashboardSessionPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardSession',
  handler: 'dashboard-session',
  auth: { kind: 'public' },
  // The user pool: e-mail and password to tokens, the first new password, the code of the
  // operator's authenticator app and setting one up, sign-out. The table only for the key of a
  // set-up under way at sign-in (OPERATORSETUP#: GetItem, PutItem), shown again at the next sign-in.
  access: { dynamodb: { actions: ['GetItem', 'PutItem'], writes: ['OPERATORSETUP#'] }, operatorSessions: true },
  description: 'Dashboard sign-in (password, then a new password, a TOTP code or TOTP set-up) and sign-out (Cognito)',
  routes: [
    ['DashboardSignInPage', 'GET', '/dashboard/sign-in'],
    ['DashboardSignIn', 'POST', '/dashboard/sign-in'],
    ['DashboardNewPassword', 'POST', '/dashboard/new-password'],
    ['DashboardSignInCode', 'POST', '/dashboard/sign-in/code'],
    ['DashboardMfaSetupPage', 'GET', '/dashboard/sign-in/mfa-setup'],
    ['DashboardMfaSetup', 'POST', '/dashboard/sign-in/mfa-setup'],
    ['DashboardSignOut', 'POST', '/dashboard/sign-out'],
    ['DashboardStylesheet', 'GET', '/dashboard/style.css'],
  ],
});

/** The pages of DashboardOverview. */
export const dashboardOverviewPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardOverview',
  handler: 'dashboard-overview',
  auth: { kind: 'dashboard', role: 'staff' },
  access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem'], queries: ['gsi1', 'gsi2', 'gsi3'] } },
  description: "Dashboard overview: today's arrivals and departures, 14-night occupancy, deliveries needing attention",
  routes: [['DashboardOverview', 'GET', '/dashboard']],
});

/** The pages of DashboardRooms. */
export const dashboardRoomsPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardRooms',
  handler: 'dashboard-rooms',
  auth: { kind: 'dashboard', role: 'staff' },
  // PutItem: a room is added, and a room type's picture is its own item (docs/data-model.md 65).
  access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem'], queries: ['gsi1', 'gsi2'], writes: ['CLIENT#'] } },
  description: 'Dashboard rooms: the rooms, a 14-night grid, Add room, room type pictures; the reception QR sheet',
  routes: [
    ['DashboardRooms', 'GET', '/dashboard/rooms'],
    ['DashboardAddRoom', 'POST', '/dashboard/rooms'],
    ['DashboardRoomTypePicture', 'POST', '/dashboard/rooms/pictures'],
    // Every operator prints it for the reception desk (the guest booking page's QR code).
    ['DashboardQrSheet', 'GET', '/dashboard/qr-sheet'],
  ],
});

/** The pages of DashboardRates. */
export const dashboardRatesPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardRates',
  handler: 'dashboard-rates',
  auth: { kind: 'dashboard', role: 'staff' },
  // Plans and categories by Query, the plan-months of the window by BatchGetItem; an admin's range
  // as PUT rates writes it (the client by GetItem; each changed month by conditional PutItem, read
  // again by GetItem when a push won), and its audit entry (CLIENT#).
  access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem'], writes: ['CLIENT#'] } },
  description: 'Dashboard rates: prices and rules of stay by category, plan and night; an admin sets a range',
  routes: [
    ['DashboardRates', 'GET', '/dashboard/rates'],
    ['DashboardSetRates', 'POST', '/dashboard/rates'],
  ],
});

/** The pages of DashboardBookings. */
export const dashboardBookingsPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardBookings',
  handler: 'dashboard-bookings',
  auth: { kind: 'dashboard', role: 'staff' },
  access: {
    // The booking, hold and audit (CLIENT#), its search entries, its client pointer, the paid
    // order's booking_sync, the deliveries. gsi3: the list in check-in order; search reads the
    // search entries (SEARCH#), the room-number guards, bookings and orders by key.
    dynamodb: {
      actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
      queries: ['gsi1', 'gsi2', 'gsi3'],
      writes: ['CLIENT#', 'SEARCH#', 'BOOKINGID#', 'ORDER#', 'DELIVERY#'],
    },
    enqueuesCallbacks: true,
  },
  description: 'Dashboard bookings: every origin, search, reception bookings, room assignment',
  routes: [
    ['DashboardBookings', 'GET', '/dashboard/bookings'],
    ['DashboardSearch', 'GET', '/dashboard/search'],
    ['DashboardNewBookingForm', 'GET', '/dashboard/bookings/new'],
    ['DashboardNewBooking', 'POST', '/dashboard/bookings'],
    ['DashboardBooking', 'GET', '/dashboard/bookings/{booking_id}'],
    ['DashboardAssignRoomForm', 'GET', '/dashboard/bookings/{booking_id}/assign'],
    ['DashboardAssignRoom', 'POST', '/dashboard/bookings/{booking_id}/assign'],
  ],
});

/** The pages of DashboardBookingChanges. */
export const dashboardBookingChangesPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardBookingChanges',
  handler: 'dashboard-booking-changes',
  auth: { kind: 'dashboard', role: 'staff' },
  access: {
    // A service booking changed, cancelled (its confirmation page first, with a refund if staff
    // choose one), marked a no-show. A change moves the booking, the room's nights (CLIENT#) and
    // its search entries (deleting the old ones), ends an open checkout marker, e-mails the guest
    // and queues the event; a refund reserves and records it on the order, asks the provider (the
    // sandbox's records, Stripe's key) and queues payment_order.refunded. Its own function: the
    // booking pages that only read or book need none of this.
    dynamodb: {
      actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
      queries: ['gsi1', 'gsi2'],
      writes: ['CLIENT#', 'SEARCH#', 'ORDER#', 'DELIVERY#', 'EMAIL#', 'SANDBOX#'],
      deletes: ['CLIENT#', 'SEARCH#'],
    },
    enqueuesCallbacks: true,
    sendsEmail: true,
    providerSecrets: ['stripeSecretKey'],
  },
  description: 'Dashboard booking changes: change, cancel, no-show of a booking the service made',
  routes: [
    ['DashboardChangeBookingForm', 'GET', '/dashboard/bookings/{booking_id}/change'],
    ['DashboardChangeBooking', 'POST', '/dashboard/bookings/{booking_id}/change'],
    ['DashboardCancelBookingPage', 'GET', '/dashboard/bookings/{booking_id}/cancel'],
    ['DashboardCancelBooking', 'POST', '/dashboard/bookings/{booking_id}/cancel'],
    ['DashboardMarkNoShow', 'POST', '/dashboard/bookings/{booking_id}/no-show'],
  ],
});

/** The pages of DashboardBookingRefunds. */
export const dashboardBookingRefundsPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardBookingRefunds',
  handler: 'dashboard-booking-refunds',
  auth: { kind: 'dashboard', role: 'staff' },
  // The refund page of a booking ("Refund" opens it; "Confirm refund" refunds). Its own
  // function: beside the changes, the bundle passed 350 KB.
  access: staffRefundAccess,
  description: "Dashboard refund of a booking's paid order, from the booking's page",
  routes: [
    ['DashboardRefundBookingPage', 'GET', '/dashboard/bookings/{booking_id}/refund'],
    ['DashboardRefundBooking', 'POST', '/dashboard/bookings/{booking_id}/refund'],
  ],
});

/** The pages of DashboardPayments. */
export const dashboardPaymentsPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardPayments',
  handler: 'dashboard-payments',
  auth: { kind: 'dashboard', role: 'staff' },
  access: staffRefundAccess,
  description: 'Dashboard payments: orders with their attempts, provider events, transactions and refunds; Refund',
  routes: [
    ['DashboardPayments', 'GET', '/dashboard/payments'],
    ['DashboardPayment', 'GET', '/dashboard/payments/{order_reference}'],
    ['DashboardRefundOrderPage', 'GET', '/dashboard/payments/{order_reference}/refunds'],
    ['DashboardRefundOrder', 'POST', '/dashboard/payments/{order_reference}/refunds'],
  ],
});

/** The pages of DashboardReports. */
export const dashboardReportsPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardReports',
  handler: 'dashboard-reports',
  auth: { kind: 'dashboard', role: 'staff' },
  // Reads only (docs/data-model.md 54, 55): the client and its rooms, the bookings by their nights
  // (gsi4), orders paid (gsi1), orders opened and refunds (gsi2), then the items by BatchGetItem.
  access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem'], queries: ['gsi1', 'gsi2', 'gsi4'] } },
  description: 'Dashboard reports: occupancy, ADR, RevPAR and revenue per night, by origin, payments by day; each as CSV',
  routes: [
    ['DashboardReports', 'GET', '/dashboard/reports'],
    // A table as CSV: occupancy.csv, origins.csv, payments.csv.
    ['DashboardReportCsv', 'GET', '/dashboard/reports/{file}'],
  ],
});

/** The pages of DashboardDeliveries. */
export const dashboardDeliveriesPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardDeliveries',
  handler: 'dashboard-deliveries',
  auth: { kind: 'dashboard', role: 'staff' },
  access: {
    dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: ['CLIENT#', 'DELIVERY#'] },
    enqueuesCallbacks: true,
  },
  description: 'Dashboard deliveries: callbacks and webhooks with their attempts, Retry',
  routes: [
    ['DashboardDeliveries', 'GET', '/dashboard/deliveries'],
    ['DashboardDelivery', 'GET', '/dashboard/deliveries/{delivery_id}'],
    ['DashboardRetryDelivery', 'POST', '/dashboard/deliveries/{delivery_id}/retry'],
    ['DashboardRetryFailed', 'POST', '/dashboard/deliveries/retry-failed'],
  ],
});

/** The pages of DashboardIntegrations. */
export const dashboardIntegrationsPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardIntegrations',
  handler: 'dashboard-integrations',
  auth: { kind: 'dashboard', role: 'admin' },
  // Keys (APIKEY#, APIKEYID#); endpoints, provider, guest booking settings and operators'
  // password confirmations (CLIENTCONFIG#); audit (CLIENT#).
  access: {
    dynamodb: {
      actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
      queries: ['gsi1'],
      writes: ['CLIENT#', 'CLIENTCONFIG#', 'APIKEY#', 'APIKEYID#', 'SLUG#'],
      // The slug the hotel gave up (its booking page's address), freed in the transaction that sets the new one.
      deletes: ['SLUG#'],
    },
    sealsSigningSecrets: true,
  },
  description: 'Dashboard integrations (admins): keys, callback and webhook URLs, payment provider, guest booking page; hotel settings',
  routes: [
    ['DashboardIntegrations', 'GET', '/dashboard/integrations'],
    ['DashboardCreateKey', 'POST', '/dashboard/integrations/keys'],
    // Revoking a key and rotating a secret: a confirmation page (GET), then its form (POST).
    ['DashboardRevokeKeyPage', 'GET', '/dashboard/integrations/keys/{key_id}/revoke'],
    ['DashboardRevokeKey', 'POST', '/dashboard/integrations/keys/{key_id}/revoke'],
    ['DashboardSetEndpoint', 'POST', '/dashboard/integrations/endpoints/{kind}'],
    ['DashboardRotateSecretPage', 'GET', '/dashboard/integrations/endpoints/{kind}/rotate'],
    ['DashboardRotateSecret', 'POST', '/dashboard/integrations/endpoints/{kind}/rotate'],
    ['DashboardSetProvider', 'POST', '/dashboard/integrations/provider'],
    ['DashboardSetPayAtProperty', 'POST', '/dashboard/integrations/guest-booking/pay-at-property'],
    // The hotel's time zone and what guests are told (client settings).
    ['DashboardHotelSettings', 'GET', '/dashboard/settings'],
    ['DashboardSaveHotelSettings', 'POST', '/dashboard/settings'],
  ],
});

/** The pages of DashboardAudit. */
export const dashboardAuditPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardAudit',
  handler: 'dashboard-audit',
  auth: { kind: 'dashboard', role: 'staff' },
  // The audit entries; the hotel's name for the header (every dashboard page: GetItem); the
  // bookings, deliveries and rooms a page of entries names (BatchGetItem, GetItem; categories: Query).
  access: { dynamodb: { actions: ['Query', 'GetItem', 'BatchGetItem'] } },
  description: "Dashboard audit: every operator action, who and when",
  routes: [['DashboardAudit', 'GET', '/dashboard/audit']],
});

/** The pages of DashboardSecurity. */
export const dashboardSecurityPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'DashboardSecurity',
  handler: 'dashboard-security',
  auth: { kind: 'dashboard', role: 'staff' },
  // The operator's own account in the user pool (their access token); the audit entry (CLIENT#);
  // the hotel's name for the header (every dashboard page: GetItem).
  access: { dynamodb: { actions: ['GetItem', 'PutItem'], writes: ['CLIENT#'] } },
  description: "Dashboard security: the operator's own second factor (TOTP), turned on",
  routes: [
    ['DashboardSecurity', 'GET', '/dashboard/security'],
    ['DashboardStartTotp', 'POST', '/dashboard/security/totp'],
    ['DashboardEnableTotp', 'POST', '/dashboard/security/totp/verify'],
  ],
});

/**
 * The hotel dashboard: server-rendered pages for a client's operators, behind their Cognito
 * session (shared/dashboard/). Every action calls the use case the ops CLI calls.
 */
export const dashboardRoutes: readonly Route[] = /* @__PURE__ */ [dashboardSessionPages, dashboardOverviewPages, dashboardRoomsPages, dashboardRatesPages, dashboardBookingsPages, dashboardBookingChangesPages, dashboardBookingRefundsPages, dashboardPaymentsPages, dashboardReportsPages, dashboardDeliveriesPages, dashboardIntegrationsPages, dashboardAuditPages, dashboardSecurityPages].flat();

/** The pages of GuestBooking. */
export const guestBookingPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'GuestBooking',
  handler: 'guest-booking',
  auth: { kind: 'public' },
  // The use cases' own list (shared/domain/guest-booking/guest-bookings.ts): the client, rooms,
  // categories and open holds by GetItem and Query, active stays on gsi1 (search) and gsi2 (the
  // chosen room); the hold, the guest booking, the order or the pay-at-property booking and its
  // delivery by transactions of Puts (UpdateItem to release a hold, to take a delivery off the
  // due index). Opening a checkout creates a payment order of the client (order-reference key,
  // Stripe's secret); paying at the hotel e-mails the guest its link, which confirms the booking
  // (queues booking.confirmed, e-mails the confirmation).
  access: { dynamodb: guestBookingTableAccess, orderReferenceKey: true, providerSecrets: ['stripeSecretKey'], enqueuesCallbacks: true, sendsEmail: true },
  description: 'Guest booking pages: search a stay, the rooms with their totals, guest details, checkout, confirmation; the reception QR code',
  routes: [
    ['GuestBookingSearch', 'GET', '/book/{client_id}'],
    ['GuestBookingDetails', 'GET', '/book/{client_id}/details'],
    ['GuestBookingCreate', 'POST', '/book/{client_id}/bookings'],
    ['GuestBookingConfirmation', 'GET', '/book/{client_id}/confirmation/{token}'],
    ['GuestBookingQrCode', 'GET', '/book/{client_id}/qr.svg'],
    ['GuestBookingStylesheet', 'GET', '/book/style.css'],
    // What crawlers may read: the guest pages, not the dashboard nor the API.
    ['GuestBookingRobots', 'GET', '/robots.txt'],
    // The link of a pay-at-the-hotel booking's "Confirm your booking" e-mail: its page, and its button.
    ['GuestBookingConfirmLink', 'GET', '/book/{client_id}/confirm/{token}'],
    ['GuestBookingConfirmLinkSubmit', 'POST', '/book/{client_id}/confirm/{token}'],
  ],
});

/** The pages of GuestCancel. */
export const guestCancelPages: readonly Route[] = /* @__PURE__ */ pageRoutes({
  function: 'GuestCancel',
  handler: 'guest-cancel',
  auth: { kind: 'public' },
  // A guest cancels their booking from its page (shared/domain/guest-booking/guest-cancel.ts):
  // the client, guest booking, booking, order, room hold and endpoints by GetItem, the open
  // checkout markers and the order's refunds by Query; the cancellation (booking, room hold,
  // marker, delivery, e-mail) and the refund (order, refund, transaction, webhook delivery,
  // e-mail; the sandbox's record) in transactions of Put and Update. Its own function: the pages
  // that book need no refunds.
  access: {
    dynamodb: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'ORDER#', 'SANDBOX#', 'DELIVERY#', 'EMAIL#'] },
    providerSecrets: ['stripeSecretKey'],
    enqueuesCallbacks: true,
    sendsEmail: true,
  },
  description: 'Guest cancels their booking from its confirmation page (inside the free cancellation), refunded in full',
  routes: [
    // The page asking to confirm, and its button.
    ['GuestBookingCancelPage', 'GET', '/book/{client_id}/confirmation/{token}/cancel'],
    ['GuestBookingCancel', 'POST', '/book/{client_id}/confirmation/{token}/cancel'],
  ],
});

/**
 * The guest booking pages (docs/behaviour.md "Guest booking and the reception QR code"): public,
 * server-rendered pages for walk-in and web guests of a client, no key, one function. The WAF
 * rate rule covers them with every other unkeyed route (`/book/`).
 */
export const guestRoutes: readonly Route[] = /* @__PURE__ */ [guestBookingPages, guestCancelPages].flat();
