/**
 * Guest bookings (docs/behaviour.md "Guest booking and the reception QR code") on the single table:
 * the confirmation item a guest's token leads to, and the markers of open checkout holds that
 * availability reads. The hold itself is an entry of the room's `ROOMHOLD#` item
 * (service-booking-store.ts), where every booking of the room serializes.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { updateClientProfile } from './api-key-store';
import { fromItem } from './items';
import type { TransactItem } from './transactions';

/** What the guest's confirmation page needs beyond the booking and the order. */
export interface GuestBookingRecord {
  client_id: string;
  /** The booking the checkout makes when paid (the order's name-based id), or the pay-at-property booking. */
  booking_id: string;
  /** Paid online: the order whose payment makes the booking. */
  order_reference?: string;
  payment: 'online' | 'at_property';
  room_id: string;
  room_number: string;
  check_in_date: string;
  check_out_date: string;
  guests: number;
  guest_name: string;
  /** The room type the guest booked (the service picked `room_id` among its rooms). */
  room_type?: string;
  /** What the guest pays, in `currency` (the client's): the room price with its taxes (stay-price.ts). */
  total: number;
  /** Of `total`, the taxes; included: part of the room price, else added to it. Absent: none. */
  taxes?: number;
  taxes_included?: boolean;
  tax_percent?: number;
  currency: string;
  created_at: string;
  /**
   * Paid at the hotel: `pending` until the guest confirms with the e-mail's link, before
   * `hold_expires_at` (after it, unconfirmed, the booking is cancelled: decided when read); then
   * `confirmed` at `confirmed_at`. Absent on online payments, whose order decides.
   */
  status?: 'pending' | 'confirmed';
  hold_expires_at?: string;
  confirmed_at?: string;
  /** Paid at the hotel: the guest's contact, for the booking the link confirms. */
  guest_email?: string;
  /** The language the guest booked in (shared/i18n/languages.ts). */
  language?: string;
  guest_phone?: string;
}

/**
 * A token leads to one booking, ever. Putting it again for the same booking is allowed: the
 * token of a repeated form submit is derived from the form (guest-booking/tokens.ts), and the repeat
 * may hold the room again after the first hold ended.
 */
export function guestBookingPutItem(tokenHash: string, record: GuestBookingRecord): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.guestBooking(tokenHash), entity: 'guest_booking', ...record },
      // A repeat of the same booking may put it again, for the same room only: a concurrent twin
      // that held another room of the type first keeps its record (checkout-holds.ts HeldByTwin).
      ConditionExpression: 'attribute_not_exists(pk) OR (booking_id = :booking AND room_id = :room)',
      ExpressionAttributeValues: { ':booking': record.booking_id, ':room': record.room_id },
    },
  };
}

export async function getGuestBooking(tokenHash: string): Promise<GuestBookingRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.guestBooking(tokenHash), ConsistentRead: true }));
  return Item ? fromItem<GuestBookingRecord>(Item) : undefined;
}

/**
 * A pay-at-the-hotel booking confirmed by its e-mail's link: only while it is pending and its
 * hold has not ended at `at` (in the transaction that writes the booking).
 */
export function guestBookingConfirmItem(tokenHash: string, bookingId: string, at: string): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.guestBooking(tokenHash),
      UpdateExpression: 'SET #status = :confirmed, confirmed_at = :at',
      ConditionExpression: 'booking_id = :booking AND #status = :pending AND hold_expires_at > :at',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':confirmed': 'confirmed', ':pending': 'pending', ':at': at, ':booking': bookingId },
    },
  };
}

/** An open checkout's marker: which room it holds for which nights, until when. */
export interface CheckoutHoldMarker {
  room_id: string;
  booking_id: string;
  check_in_date: string;
  check_out_date: string;
  /** ISO time the hold ends (the sort key holds it too). */
  hold_expires_at: string;
}

/** The marker, with the table's TTL attribute (epoch seconds) so AWS removes it after it expired. */
export function checkoutHoldPutItem(clientId: string, marker: CheckoutHoldMarker): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.checkoutHold(clientId, marker.hold_expires_at, marker.booking_id),
        entity: 'checkout_hold',
        ...marker,
        expires_at: Math.ceil(Date.parse(marker.hold_expires_at) / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Ends a marker before its time (its checkout was cancelled or failed): availability skips it from then on. */
export function checkoutHoldReleaseItem(clientId: string, marker: Pick<CheckoutHoldMarker, 'booking_id' | 'hold_expires_at'>, at: string): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.checkoutHold(clientId, marker.hold_expires_at, marker.booking_id),
      UpdateExpression: 'SET released_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    },
  };
}

/**
 * The client's checkout holds still open at `now` that overlap the window: one strongly
 * consistent Query over the markers expiring after `now` (a checkout opened a moment ago is
 * seen), released ones left out.
 */
export async function openCheckoutHolds(clientId: string, window: { checkIn: string; checkOut: string }, now: Date): Promise<CheckoutHoldMarker[]> {
  const range = keys.openCheckoutHolds(now.toISOString());
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ProjectionExpression: 'room_id, booking_id, check_in_date, check_out_date, hold_expires_at, released_at',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':from': range.from, ':to': range.to },
    ConsistentRead: true,
  });
  return (items as (CheckoutHoldMarker & { released_at?: string })[])
    .filter((m) => !m.released_at && m.check_in_date < window.checkOut && m.check_out_date > window.checkIn)
    .map(({ released_at: _released, ...marker }) => marker);
}

/** A checkout hold one source address opened: its room and booking, and when it ends. */
export interface SourceHold {
  booking_id: string;
  room_id: string;
  expires_at: string;
}

/** The holds a source address opened at a client, with the version writes are conditioned on. */
export async function getSourceHolds(clientId: string, sourceHash: string): Promise<{ holds: SourceHold[]; version: number }> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.guestSource(clientId, sourceHash), ConsistentRead: true }));
  return { holds: (Item?.holds as SourceHold[] | undefined) ?? [], version: (Item?.version as number | undefined) ?? 0 };
}

/**
 * The source's holds as they now stand, written only if nobody else wrote them since they were
 * read at `readVersion` (two tabs of one guest racing for a 4th hold: one wins). The TTL
 * attribute lets AWS remove the item once its last hold is over.
 */
export function sourceHoldsPutItem(clientId: string, sourceHash: string, holds: readonly SourceHold[], readVersion: number): TransactItem {
  const last = holds.reduce((latest, h) => (h.expires_at > latest ? h.expires_at : latest), '');
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.guestSource(clientId, sourceHash),
        entity: 'guest_source',
        holds,
        version: readVersion + 1,
        ...(last ? { expires_at: Math.ceil(Date.parse(last) / 1000) } : {}),
      },
      ConditionExpression: readVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :read',
      ...(readVersion === 0 ? {} : { ExpressionAttributeValues: { ':read': readVersion } }),
    },
  };
}

/** The pay-at-property setting on the client's profile; false when there is no such client. */
export async function putPayAtProperty(clientId: string, enabled: boolean): Promise<boolean> {
  return (await updateClientProfile(clientId, { pay_at_property: enabled })) !== undefined;
}
