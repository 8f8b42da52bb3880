/**
 * The guest booking page's use cases, in one place for the pages, the dashboard and the tests
 * (docs/behaviour.md "Guest booking and the reception QR code"): a walk-in or web guest searches
 * a client's free rooms, books one and pays on the client's provider checkout (a payment order of
 * the client, made by the service itself, no key), or pays at the property where the client
 * allows it. Every business rule is in this folder; the pages only render. The files inside
 * import each other directly, never this one.
 *
 * - booking-input.ts: the form's rules (stay, guest, attempt). tokens.ts: confirmation tokens,
 *   link secrets, a submit's identity. urls.ts: the URLs handed to providers and e-mails.
 * - guest-client.ts: the hotel as guests see it, the room chosen, the pay-at-the-hotel setting.
 * - room-search.ts: the free rooms by category. online-checkout.ts: the hold and the payment
 *   order. pay-at-property.ts: a booking paid at the hotel. booking-views.ts: a token's page.
 *   guest-cancel.ts: the guest cancels within the free-cancellation window, refunded in full.
 * - checkout-holds.ts: the room held for HOLD_MINUTES from the moment the checkout opens, not
 *   offered to anyone else meanwhile, freed by expiry (or at once when the checkout is cancelled
 *   or fails); the payment then confirms the booking through the order's mirroring
 *   (mirror-paid-booking.ts), locked to the room, or recorded for manual assignment when the room
 *   was taken after the hold expired. source-limit.ts: at most three open holds per address.
 *
 * DynamoDB access of each function (declare the union for the function serving the pages,
 * `guestBookingTableAccess` in definitions/guest-booking-access.ts; docs/data-model.md patterns
 * 33 to 36):
 * - guestBookingClient: GetItem (the slug's item, for an address by slug; the client's profile).
 * - hotelShowcase (showcase.ts, the landing page): Query on the table (rooms, categories, rate
 *   plans, the plans' months of the coming four weeks).
 * - room-choice.ts: the rooms a booking of a type may hold (searchRooms', then GetItem of each
 *   candidate room, at most MAX_ROOM_CANDIDATES); the hold takes the first still free
 *   (checkout-holds.ts holdOneOf), in its own transaction.
 * - checkStay: none.
 * - searchRooms: GetItem (client); Query on the table (rooms, categories (twice: availability's,
 *   and their descriptions and amenities), open checkout holds); Query gsi1 (the client's active
 *   stays).
 * - startCheckout: GetItem (client, provider settings, room, room hold, order-reference guard);
 *   Query gsi2 (the room's active stays); PutItem (transaction: room hold, checkout-hold marker,
 *   guest booking; the sandbox session; transaction: order, reference guard, first attempt);
 *   when the order cannot be created, PutItem and UpdateItem (transaction releasing the hold).
 *   A repeated submit of a form finds its own hold and writes none; its order is the existing one.
 *   Also the order-reference key (`orderReferenceKey`: order references, and the tokens of
 *   forms with an attempt id) and, for Stripe, `stripeSecretKey`.
 * - Pay at the hotel (bookPayAtProperty, confirmPayAtProperty): ./pay-at-property.ts lists theirs.
 * - guestBookingOf, guestBookingPage: GetItem (guest booking, booking, order, and the room when
 *   the booking was given another room than the one chosen). The page's "Try again" reads the
 *   room's availability as searchRooms does (offeredRoom).
 * - cancelGuestBooking: served by its own function, `GuestCancel`, whose access ./guest-cancel.ts
 *   lists; the confirmation page reads nothing more for its "Cancel booking" (cancelOffer).
 * - setPayAtProperty: UpdateItem (the client's profile, in its configuration partition; a profile
 *   only at its legacy key is copied there first: GetItem, PutItem).
 */
export { type BookingInput, checkStay, type GuestDetails, MAX_GUEST_NIGHTS, newBookingAttempt, type StayQuery } from './booking-input';
export { type GuestBookingPage, type GuestBookingView, guestBookingOf, guestBookingPage } from './booking-views';
export { HOLD_MINUTES } from './checkout-holds';
export { type CancelOffer, cancelOffer, checkInMoment, freeCancellationUntil } from './cancel-window';
export { cancelGuestBooking, GUEST_CANCELLATION_REASON } from './guest-cancel';
export { type GuestClient, guestBookingClient, setPayAtProperty } from './guest-client';
export { startCheckout } from './online-checkout';
export { bookPayAtProperty, confirmPayAtProperty, payAtPropertyLink, type PayAtPropertyOutcome } from './pay-at-property';
export { type OfferedCategory, type OfferedRoom, offeredRoom, offeredType, roomTypeOf, type RoomSearch, searchRooms } from './room-search';
export { FROM_PRICE_NIGHTS, hotelShowcase, type ShowcaseType } from './showcase';
export { tokenHash } from './tokens';
