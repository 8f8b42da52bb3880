/**
 * Every key of the single table is built here, and nowhere else.
 * The data model (README "Data model") lists the access pattern each key serves.
 */

/**
 * Partitions of the delivery "due" index. One partition takes about 1,000 writes a second; the
 * sweeper reads every shard in parallel, a Query each, so this also bounds its idle cost.
 */
export const DELIVERY_DUE_SHARDS = 16;

/** A delivery's due-index shard: FNV-1a of its id, so it never changes while the delivery waits. */
function deliveryDueShard(deliveryId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < deliveryId.length; i++) hash = Math.imul(hash ^ deliveryId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % DELIVERY_DUE_SHARDS;
}

const DELIVERIES_DUE = 'DELIVERIES#DUE';
/** The due index's partition of guest e-mails not sent yet (one: a few e-mails per booking, far below a partition's 1,000 writes a second). */
const EMAILS_DUE = 'EMAILS#DUE';
/** The due index's partition of refunds the provider has not answered yet (a handful at any time). */
const REFUNDS_DUE = 'REFUNDS#DUE';

/** An id in a sort key: a UUID, an order reference (no `#`). */
const SORT_KEY_ID = /^[A-Za-z0-9-]{1,128}$/;
/** A time in a sort key, as Date.toISOString writes it. */
const SORT_KEY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `<iso time>#<id>` read back, or undefined when it is not one (a cursor is checked with it). */
function timeOrderedEntry(sortKey: string): { at: string; id: string } | undefined {
  const split = sortKey.indexOf('#');
  const entry = { at: sortKey.slice(0, split), id: sortKey.slice(split + 1) };
  return split > 0 && SORT_KEY_TIME.test(entry.at) && SORT_KEY_ID.test(entry.id) ? entry : undefined;
}

export const keys = {
  /**
   * A client's configuration (profile, provider settings, endpoints, linked Stripe accounts,
   * operators' re-auth records) is in a partition of its own, `CLIENTCONFIG#`, apart from its
   * property data, bookings and holds (`CLIENT#`), so IAM can keep the public functions, which
   * write bookings and holds, from writing configuration (dynamodb:LeadingKeys sees the partition
   * key only). Versions before kept the profile, provider settings and endpoints in `CLIENT#`:
   * the `legacy…` keys, read only when the new item is absent (shared/store/client-config.ts).
   */
  clientConfigPartition: (clientId: string) => ({ pk: `CLIENTCONFIG#${clientId}` }),
  client: (clientId: string) => ({ pk: `CLIENTCONFIG#${clientId}`, sk: 'PROFILE' }),
  legacyClient: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'PROFILE' }),
  /** A hotel's booking-page slug (`/book/<slug>`), unique across clients: its client id, by GetItem. */
  clientSlug: (slug: string) => ({ pk: `SLUG#${slug}`, sk: 'SLUG' }),
  /** Listing every client (operators): gsi1 on the client's profile, oldest first. */
  clientListIndex: (createdAt: string, clientId: string) => ({ gsi1pk: 'CLIENTS', gsi1sk: `${createdAt}#${clientId}` }),
  allClients: { gsi1pk: 'CLIENTS' },
  /** The client id of a client-list entry's table key: its profile's, at `client` or `legacyClient`. */
  clientIdOfProfile: (pk: string) => pk.slice(pk.indexOf('#') + 1),
  /**
   * The local stack's stand-in for API Gateway's usage-plan keys: which plan's limits a usage
   * key (the authorizer's usageIdentifierKey) gets. In the stack API Gateway holds this.
   */
  usageKey: (usageKey: string) => ({ pk: `USAGEKEY#${usageKey}`, sk: 'USAGEKEY' }),

  /** Authorizer lookup: GetItem by the SHA-256 of the presented key. */
  apiKeyByHash: (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** Listing a client's keys: gsi1 on the key item. */
  apiKeyClientIndex: (clientId: string, keyId: string) => ({
    gsi1pk: `CLIENT#${clientId}#APIKEYS`,
    gsi1sk: `APIKEY#${keyId}`,
  }),
  apiKeysOfClient: (clientId: string) => ({ gsi1pk: `CLIENT#${clientId}#APIKEYS` }),
  /** Revoking by key id: a pointer from the id to the hash. */
  apiKeyById: (keyId: string) => ({ pk: `APIKEYID#${keyId}`, sk: 'APIKEYID' }),

  /** A client's property data lives in the client's partition. */
  clientPartition: (clientId: string) => ({ pk: `CLIENT#${clientId}` }),
  category: (clientId: string, source: string, externalCategoryId: string) => ({
    pk: `CLIENT#${clientId}`,
    sk: `CATEGORY#${source}#${externalCategoryId}`,
  }),
  categoryPrefix: 'CATEGORY#',
  /**
   * The dashboard's picture of a category: an item of its own, which no sync writes, so a sync
   * racing the dashboard cannot drop it. Its prefix sorts right after the categories' (no other
   * sort key of the partition falls between), so one Query range reads both.
   */
  categoryPicture: (clientId: string, source: string, externalCategoryId: string) => ({
    pk: `CLIENT#${clientId}`,
    sk: `CATEGORYPICTURE#${source}#${externalCategoryId}`,
  }),
  categoryPicturePrefix: 'CATEGORYPICTURE#',
  /** A rate plan of a category, by the PMS's ids (as a category). */
  ratePlan: (clientId: string, source: string, externalRatePlanId: string) => ({
    pk: `CLIENT#${clientId}`,
    sk: `RATEPLAN#${source}#${externalRatePlanId}`,
  }),
  ratePlanPrefix: 'RATEPLAN#',
  /**
   * A plan's prices and restrictions of one month (`YYYY-MM`), by the plan's id (a UUID, so no
   * external id can run into another's): a stay reads one item a plan a month, whatever the history.
   * Month first: every plan's months of a stay are one sort-key range (rateMonthsBetween).
   */
  rateMonth: (clientId: string, ratePlanId: string, month: string) => ({ pk: `CLIENT#${clientId}`, sk: `RATES#${month}#${ratePlanId}` }),
  /** The sort-key range of every plan's months from `fromMonth` to `toMonth` (both `YYYY-MM`, included). */
  rateMonthsBetween: (fromMonth: string, toMonth: string) => ({ from: `RATES#${fromMonth}#`, to: `RATES#${toMonth}#~` }),
  room: (clientId: string, roomId: string) => ({ pk: `CLIENT#${clientId}`, sk: `ROOM#${roomId}` }),
  roomPrefix: 'ROOM#',
  /** Guard item: one room per room number within a client. */
  roomNumber: (clientId: string, roomNumber: string) => ({ pk: `CLIENT#${clientId}`, sk: `ROOMNUM#${roomNumber}` }),
  booking: (clientId: string, bookingId: string) => ({ pk: `CLIENT#${clientId}`, sk: `BOOKING#${bookingId}` }),
  /** Every booking of a client, any origin: the client partition from this sort-key prefix on. */
  bookingPrefix: 'BOOKING#',
  /** The booking id of a sort key of `booking`. */
  bookingIdOf: (sk: string) => sk.slice('BOOKING#'.length),
  /**
   * Which client a service-made booking (reception, paid order) belongs to, by its id alone:
   * the operator CLI's `bookings assign BOOKING_ID` names no client.
   */
  bookingClient: (bookingId: string) => ({ pk: `BOOKINGID#${bookingId}`, sk: 'BOOKINGID' }),
  /**
   * Every booking of a client in check-in order (gsi3, on every booking item, whatever its state):
   * the Bookings list pages through it, so a page reads its own size, whatever the history.
   */
  bookingsByCheckIn: (clientId: string) => `CLIENT#${clientId}#BOOKINGS`,
  bookingCheckInSortKey: (checkInDate: string, bookingId: string) => `${checkInDate}#${bookingId}`,
  /** The check-in date and booking id of a `bookingCheckInSortKey`, or undefined when it is not one (a cursor is checked with it). */
  bookingCheckInEntry: (gsi3sk: string) => {
    const entry = { checkInDate: gsi3sk.slice(0, 10), bookingId: gsi3sk.slice(11) };
    return /^\d{4}-\d{2}-\d{2}$/.test(entry.checkInDate) && gsi3sk[10] === '#' && SORT_KEY_ID.test(entry.bookingId) ? entry : undefined;
  },
  /**
   * A booking's search entry (shared/store/search-store.ts): one per term a booking is found by,
   * written with the booking. Sorted by term, then check-in, so one term's bookings come newest
   * stay first. Spread over partitions by `shard` (the term's first character, or a hash of it).
   */
  bookingSearch: (clientId: string, kind: string, shard: string, term: string, checkInDate: string, bookingId: string) => ({
    pk: `SEARCH#${clientId}#${kind}#${shard}`,
    sk: `${term}#${checkInDate}#${bookingId}`,
  }),
  bookingSearchPartition: (clientId: string, kind: string, shard: string) => `SEARCH#${clientId}#${kind}#${shard}`,
  /** The booking id of a search entry's sort key: what follows its last `#`. */
  bookingSearchEntryId: (sk: string) => sk.slice(sk.lastIndexOf('#') + 1),
  /**
   * Every booking of a client by its nights (gsi4, whatever its state: reports count cancelled and
   * no-show bookings too), in check-in order with the check-out beside it, so a report reads the
   * bookings that can reach its range and decides overlap from the key alone. Short stays (<= 31
   * nights) apart from long ones, as on the stay index: a month's report reads a month back.
   */
  bookingNights: (clientId: string, length: 'short' | 'long') => `CLIENT#${clientId}#NIGHTS#${length}`,
  bookingNightsSortKey: (checkInDate: string, checkOutDate: string, bookingId: string) => `${checkInDate}#${checkOutDate}#${bookingId}`,
  /** The check-in and check-out dates of a `bookingNightsSortKey`. */
  bookingNightsEntry: (gsi4sk: string) => ({ checkInDate: gsi4sk.slice(0, 10), checkOutDate: gsi4sk.slice(11, 21) }),
  checkin: (clientId: string, source: string, externalCheckinId: string) => ({
    pk: `CLIENT#${clientId}`,
    sk: `CHECKIN#${source}#${externalCheckinId}`,
  }),

  /**
   * Sparse indexes of ACTIVE bookings only, sorted by check-out date. A booking overlapping
   * [in, out) has check-out in (in, out + its length]; short stays (<= 31 nights) and long ones
   * are kept apart so the common query reads about a month past the range, whatever the history.
   */
  activeStays: (clientId: string, length: 'short' | 'long') => `CLIENT#${clientId}#STAYS#${length}`,
  activeStaysOfRoom: (roomId: string) => `ROOM#${roomId}#STAYS`,
  staySortKey: (checkOutDate: string, bookingId: string) => `${checkOutDate}#${bookingId}`,

  /**
   * Service bookings (reception, paid orders) that hold a room, kept on one strongly consistent
   * item per room: a conditional write on it serializes concurrent bookings of that room.
   */
  roomHold: (clientId: string, roomId: string) => ({ pk: `CLIENT#${clientId}`, sk: `ROOMHOLD#${roomId}` }),
  /**
   * A guest's open checkout holding a room (the authoritative entry is on `roomHold`): a marker
   * in the client's partition sorted by when the hold expires, so availability reads the holds
   * still open with one Query from `now` on, however many expired ones TTL has not removed yet.
   */
  checkoutHold: (clientId: string, expiresAt: string, bookingId: string) => ({ pk: `CLIENT#${clientId}`, sk: `CHECKOUTHOLD#${expiresAt}#${bookingId}` }),
  /** The sort-key range of the checkout holds that expire after `now` (an ISO time). */
  openCheckoutHolds: (now: string) => ({ from: `CHECKOUTHOLD#${now}~`, to: 'CHECKOUTHOLD#~' }),
  /**
   * A guest booking, by the SHA-256 (base64url) of its confirmation token: the token, handed to the
   * guest only, is the one way to it, and the table does not hold it.
   */
  guestBooking: (tokenHash: string) => ({ pk: `GUESTBOOKING#${tokenHash}`, sk: 'GUESTBOOKING' }),
  /** The open checkout holds one source address has at one client (its keyed hash): at most 3. */
  guestSource: (clientId: string, sourceHash: string) => ({ pk: `GUESTSOURCE#${clientId}#${sourceHash}`, sk: 'GUESTSOURCE' }),

  /** Where a client receives events: `callback` (booking.confirmed) or `webhook` (payment_order.paid). */
  endpoint: (clientId: string, kind: 'callback' | 'webhook') => ({ pk: `CLIENTCONFIG#${clientId}`, sk: `ENDPOINT#${kind}` }),
  legacyEndpoint: (clientId: string, kind: 'callback' | 'webhook') => ({ pk: `CLIENT#${clientId}`, sk: `ENDPOINT#${kind}` }),

  /** One item per outbound delivery, read by id by the sender. */
  delivery: (deliveryId: string) => ({ pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  /** Listing a client's deliveries, newest last: gsi2. */
  deliveryOfClient: (clientId: string, createdAt: string, deliveryId: string) => ({
    gsi2pk: `CLIENT#${clientId}#DELIVERIES`,
    gsi2sk: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfClient: (clientId: string) => `CLIENT#${clientId}#DELIVERIES`,
  /** The creation time and delivery id of a `deliveryOfClient` sort key, or undefined when it is not one. */
  deliveryOfClientEntry: (gsi2sk: string) => timeOrderedEntry(gsi2sk),
  /** A client's deliveries of one endpoint in creation order (gsi4): the deliveries API's list and replay. */
  deliveryOfEndpoint: (clientId: string, endpoint: 'callback' | 'webhook', createdAt: string, deliveryId: string) => ({
    gsi4pk: `CLIENT#${clientId}#DELIVERIES#${endpoint}`,
    gsi4sk: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfEndpoint: (clientId: string, endpoint: 'callback' | 'webhook') => `CLIENT#${clientId}#DELIVERIES#${endpoint}`,
  /** The creation time and delivery id of a `deliveryOfEndpoint` sort key, or undefined when it is not one. */
  deliveryOfEndpointEntry: (gsi4sk: string) => timeOrderedEntry(gsi4sk),
  /** A bulk resend (replay, retry all) the sweeper carries on: in the delivery partitions, so the sweeper writes it. */
  replayJob: (jobId: string) => ({ pk: `DELIVERY#REPLAY#${jobId}`, sk: 'REPLAY' }),
  /** Open bulk resends on gsi1, oldest first, while there is work left in them. */
  replayJobOpen: (createdAt: string, jobId: string) => ({ gsi1pk: 'DELIVERIES#REPLAYS', gsi1sk: `${createdAt}#${jobId}` }),
  replayJobsOpen: 'DELIVERIES#REPLAYS',
  /** Which bulk resend of a client is its latest (the dashboard's "N of M sent"): its id. */
  latestReplayOf: (clientId: string) => ({ pk: `DELIVERY#REPLAYS#${clientId}`, sk: 'LATEST' }),
  /**
   * Sparse "due" index (gsi1): present while a delivery is pending or retrying, by the time the
   * sweeper is to enqueue it (its due time, or once on the queue its resend-after time), so a
   * failed enqueue or a lost message is picked up again.
   * Spread over DELIVERY_DUE_SHARDS partitions by delivery id: moving a delivery in time (a
   * retry, an operator retry) rewrites its sort key within the same partition.
   */
  deliveryDue: (dueAt: string, deliveryId: string) => ({
    gsi1pk: `${DELIVERIES_DUE}#${deliveryDueShard(deliveryId)}`,
    gsi1sk: `${dueAt}#${deliveryId}`,
  }),
  /**
   * The partitions the sweeper reads: every shard, then the single partition of versions before
   * sharding, which nothing writes any more and the sweeper drains (a one-off migration).
   */
  deliveryDuePartitions: [...Array.from({ length: DELIVERY_DUE_SHARDS }, (_, n) => `${DELIVERIES_DUE}#${n}`), DELIVERIES_DUE] as readonly string[],
  /** The highest due-index sort key of what is due at `now` (`~` sorts after every id character). */
  deliveryDueUntil: (now: string) => `${now}~`,
  /** A due-index entry read from its sort key alone, so the index may project keys only. */
  deliveryDueEntry: (gsi1sk: string) => {
    const at = gsi1sk.indexOf('#');
    return { dueAt: gsi1sk.slice(0, at), deliveryId: gsi1sk.slice(at + 1) };
  },

  /**
   * An e-mail to a guest (a booking's confirmation, a "Confirm your booking" link), by its id: a
   * name-based id of the booking and the kind of e-mail, so each is written once.
   */
  email: (emailId: string) => ({ pk: `EMAIL#${emailId}`, sk: 'EMAIL' }),
  /** When an address (its keyed hash) was last sent "Confirm your booking" e-mails: at most 3 an hour. */
  confirmEmailsTo: (addressHash: string) => ({ pk: `EMAIL#TO#${addressHash}`, sk: 'CONFIRMS' }),
  /**
   * Sparse "due" index (gsi1) of the e-mails not sent yet: when the sweeper is to try one (again).
   * Written with the e-mail a short lease ahead (the function that wrote it sends it at once),
   * then at each failed try's next retry; removed once sent or given up.
   */
  emailDue: (dueAt: string, emailId: string) => ({ gsi1pk: EMAILS_DUE, gsi1sk: `${dueAt}#${emailId}` }),
  emailsDue: EMAILS_DUE,
  /** The highest due-index sort key of the e-mails due at `now`. */
  emailDueUntil: (now: string) => `${now}~`,
  /** A due e-mail read from its sort key alone (the index projects no e-mail attribute). */
  emailDueEntry: (gsi1sk: string) => {
    const at = gsi1sk.indexOf('#');
    return { dueAt: gsi1sk.slice(0, at), emailId: gsi1sk.slice(at + 1) };
  },

  /**
   * Operators' audit entries, in the client's partition, newest last by sort key: the time first,
   * then a random id, so two entries of one millisecond never collide.
   */
  audit: (clientId: string, at: string, id: string) => ({ pk: `CLIENT#${clientId}`, sk: `AUDIT#${at}#${id}` }),
  auditPrefix: 'AUDIT#',
  /** The time and id of an audit entry's sort key, or undefined when it is not one. */
  auditEntryOf: (sk: string) => (sk.startsWith('AUDIT#') ? timeOrderedEntry(sk.slice('AUDIT#'.length)) : undefined),
  /**
   * The same entry again under the record it is about, when that is one of the service's ids (a
   * booking's, a delivery's): the entries about one record are one sort-key range, newest last.
   */
  auditAbout: (clientId: string, target: string, at: string, id: string) => ({ pk: `CLIENT#${clientId}`, sk: `AUDITABOUT#${target}#${at}#${id}` }),
  auditAboutPrefix: (target: string) => `AUDITABOUT#${target}#`,
  /** Whether entries about `target` are kept under it too (auditAbout): an id, never a `#`. */
  isAuditTarget: (target: string) => SORT_KEY_ID.test(target),

  /** A payment order and, in its partition, its attempts, provider events and transactions. */
  paymentOrder: (orderReference: string) => ({ pk: `ORDER#${orderReference}`, sk: 'ORDER' }),
  paymentAttempt: (orderReference: string, attempt: number) => ({ pk: `ORDER#${orderReference}`, sk: `ATTEMPT#${String(attempt).padStart(4, '0')}` }),
  providerEvent: (orderReference: string, at: string, eventId: string) => ({ pk: `ORDER#${orderReference}`, sk: `EVENT#${at}#${eventId}` }),
  paymentTransaction: (orderReference: string, transactionId: string) => ({ pk: `ORDER#${orderReference}`, sk: `TXN#${transactionId}` }),
  /** A refund of the order (shared/store/refund-store.ts), in its partition; its refunds are one sort-key range. */
  paymentRefund: (orderReference: string, refundId: string) => ({ pk: `ORDER#${orderReference}`, sk: `REFUND#${refundId}` }),
  /**
   * Sparse "due" index (gsi1) of refunds still `requested`: when the sweeper is to drive one
   * that nobody finished (its process died after the reservation, or the provider did not
   * answer). Removed once the provider's answer is recorded.
   */
  refundDue: (dueAt: string, orderReference: string, refundId: string) => ({ gsi1pk: REFUNDS_DUE, gsi1sk: `${dueAt}#${orderReference}#${refundId}` }),
  refundsDue: REFUNDS_DUE,
  /** A due refund read from its sort key alone. */
  refundDueEntry: (gsi1sk: string) => {
    const [dueAt, orderReference, refundId] = gsi1sk.split('#');
    return dueAt && orderReference && refundId ? { dueAt, orderReference, refundId } : undefined;
  },
  paymentRefundPrefix: 'REFUND#',
  /** A client's refunds by when they were asked for (gsi2 on the refund item): the payments report's days. */
  refundOfClient: (clientId: string, createdAt: string, refundId: string) => ({ gsi2pk: `CLIENT#${clientId}#REFUNDS`, gsi2sk: `${createdAt}#${refundId}` }),
  refundsOfClient: (clientId: string) => `CLIENT#${clientId}#REFUNDS`,
  orderPartition: (orderReference: string) => `ORDER#${orderReference}`,
  /** Listing a client's orders, newest last by sort key: gsi2 on the order item, from its creation. */
  orderOfClient: (clientId: string, createdAt: string, orderReference: string) => ({
    gsi2pk: `CLIENT#${clientId}#ORDERS`,
    gsi2sk: `${createdAt}#${orderReference}`,
  }),
  ordersOfClient: (clientId: string) => `CLIENT#${clientId}#ORDERS`,
  /** The creation time and order reference of an `orderOfClient` sort key, or undefined when it is not one. */
  orderOfClientEntry: (gsi2sk: string) => timeOrderedEntry(gsi2sk),
  /** A client's paid orders by payment time (the orders paid on a day): gsi1 on the order item, once paid. */
  paidOrderOfClient: (clientId: string, paidAt: string, orderReference: string) => ({
    gsi1pk: `CLIENT#${clientId}#PAID`,
    gsi1sk: `${paidAt}#${orderReference}`,
  }),
  paidOrdersOfClient: (clientId: string) => `CLIENT#${clientId}#PAID`,
  /** The gsi1 sort-key range of the orders paid on a UTC calendar day (`paid_at` is an ISO timestamp in UTC). */
  paidOnDay: (date: string) => ({ from: `${date}T`, to: `${date}T~` }),
  /**
   * A payment order opened for a guest's stay (its dates and the guest's e-mail, hashed), beside the
   * client's other items: a booking's story and the Payments page find every order of one stay,
   * declined and expired ones too, with one bounded Query (docs/data-model.md, access pattern 63).
   */
  stayOrder: (clientId: string, stayKey: string, createdAt: string, orderReference: string) => ({
    pk: `CLIENT#${clientId}`,
    sk: `STAYORDER#${stayKey}#${createdAt}#${orderReference}`,
  }),
  stayOrdersPrefix: (stayKey: string) => `STAYORDER#${stayKey}#`,
  /** Guard: a partner's `reference` is unique per client. */
  orderByExternalReference: (clientId: string, reference: string) => ({ pk: `CLIENT#${clientId}`, sk: `ORDEREXT#${reference}` }),
  /** A client's payment provider settings. */
  providerSettings: (clientId: string) => ({ pk: `CLIENTCONFIG#${clientId}`, sk: 'PROVIDER' }),
  legacyProviderSettings: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'PROVIDER' }),
  /**
   * A Stripe connected account the platform linked to the client (`ops clients link-stripe-account`):
   * the accounts its admins may choose among on the dashboard.
   */
  linkedStripeAccount: (clientId: string, account: string) => ({ pk: `CLIENTCONFIG#${clientId}`, sk: `STRIPEACCOUNT#${account}` }),
  linkedStripeAccountPrefix: 'STRIPEACCOUNT#',
  /**
   * An operator's password confirmed again (shared/domain/reauthentication.ts), by the SHA-256 of
   * the random token in that browser's re-auth cookie: the table never holds the token itself.
   */
  operatorReauth: (clientId: string, tokenHash: string) => ({ pk: `CLIENTCONFIG#${clientId}`, sk: `REAUTH#${tokenHash}` }),
  /** The authenticator key shown to an operator whose set-up is under way at sign-in, by the SHA-256 of the Cognito username. */
  pendingTotpSetup: (usernameHash: string) => ({ pk: `OPERATORSETUP#${usernameHash}`, sk: 'TOTP' }),
  /** The sandbox provider's own checkout sessions. */
  sandboxSession: (providerReference: string) => ({ pk: `SANDBOX#${providerReference}`, sk: 'SANDBOX' }),
  /** A refund the sandbox provider made of a session's payment, in the session's partition. */
  sandboxRefund: (providerReference: string, refundId: string) => ({ pk: `SANDBOX#${providerReference}`, sk: `REFUND#${refundId}` }),

  /** Idempotency records: pk is Powertools' `<prefix>#<hash>`, one partition per key; the sort key is fixed. */
  idempotency: { prefix: 'IDEMPOTENCY', sortKey: 'IDEMPOTENCY' },
};

export const SHORT_STAY_NIGHTS = 31;

export { PARTITION_PREFIXES, type PartitionPrefix } from '../../definitions/partitions';
