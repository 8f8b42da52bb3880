/**
 * Every key of the single table is built here, and nowhere else.
 * The data model (README "Data model") lists the access pattern each key serves.
 */
export const keys = {
  client: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'PROFILE' }),

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
  room: (clientId: string, roomId: string) => ({ pk: `CLIENT#${clientId}`, sk: `ROOM#${roomId}` }),
  roomPrefix: 'ROOM#',
  /** Guard item: one room per room number within a client. */
  roomNumber: (clientId: string, roomNumber: string) => ({ pk: `CLIENT#${clientId}`, sk: `ROOMNUM#${roomNumber}` }),
  booking: (clientId: string, bookingId: string) => ({ pk: `CLIENT#${clientId}`, sk: `BOOKING#${bookingId}` }),
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

  /** Where a client receives events: `callback` (booking.confirmed) or `webhook` (payment_order.paid). */
  endpoint: (clientId: string, kind: 'callback' | 'webhook') => ({ pk: `CLIENT#${clientId}`, sk: `ENDPOINT#${kind}` }),

  /** One item per outbound delivery, read by id by the sender. */
  delivery: (deliveryId: string) => ({ pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  /** Listing a client's deliveries, newest last: gsi2. */
  deliveryOfClient: (clientId: string, createdAt: string, deliveryId: string) => ({
    gsi2pk: `CLIENT#${clientId}#DELIVERIES`,
    gsi2sk: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfClient: (clientId: string) => `CLIENT#${clientId}#DELIVERIES`,
  /**
   * Sparse "due" index (gsi1): present while a delivery waits to be put on the queue, by due
   * time. The sweeper enqueues what is due, so a failed or lost enqueue is picked up again.
   */
  deliveryDue: (dueAt: string, deliveryId: string) => ({ gsi1pk: 'DELIVERIES#DUE', gsi1sk: `${dueAt}#${deliveryId}` }),
  deliveriesDue: 'DELIVERIES#DUE',

  /** A payment order and, in its partition, its attempts, provider events and transactions. */
  paymentOrder: (orderReference: string) => ({ pk: `ORDER#${orderReference}`, sk: 'ORDER' }),
  paymentAttempt: (orderReference: string, attempt: number) => ({ pk: `ORDER#${orderReference}`, sk: `ATTEMPT#${String(attempt).padStart(4, '0')}` }),
  providerEvent: (orderReference: string, at: string, eventId: string) => ({ pk: `ORDER#${orderReference}`, sk: `EVENT#${at}#${eventId}` }),
  paymentTransaction: (orderReference: string, transactionId: string) => ({ pk: `ORDER#${orderReference}`, sk: `TXN#${transactionId}` }),
  orderPartition: (orderReference: string) => `ORDER#${orderReference}`,
  /** Guard: a partner's `reference` is unique per client. */
  orderByExternalReference: (clientId: string, reference: string) => ({ pk: `CLIENT#${clientId}`, sk: `ORDEREXT#${reference}` }),
  /** A client's payment provider settings. */
  providerSettings: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'PROVIDER' }),
  /** The sandbox provider's own checkout sessions. */
  sandboxSession: (providerReference: string) => ({ pk: `SANDBOX#${providerReference}`, sk: 'SANDBOX' }),

  /** Idempotency records: pk is Powertools' `<prefix>#<hash>`, one partition per key; the sort key is fixed. */
  idempotency: { prefix: 'IDEMPOTENCY', sortKey: 'IDEMPOTENCY' },
};

export const SHORT_STAY_NIGHTS = 31;
