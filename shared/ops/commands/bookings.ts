/**
 * `bookings ...`: reception bookings made, a client's bookings listed, reindexed, given a room,
 * cancelled (optionally refunding their order) and changed; all but listing and reindexing are
 * the reception's use cases, audited as the operator CLI. The client is found by the booking.
 */
import type { BookingRecord } from '../../store/booking-store';
import { BOOKING_ORIGINS } from '../../schemas/bookings';
import { minorUnits } from '../../schemas/payments';
import { BOOKING_STATUSES } from '../../schemas/booking-statuses';
import { type Command, defineCommand, UsageError } from '../cli';
import { fields } from '../format';
import { bookingMoney } from '../../domain/bookings/booking-money';
import { totalChoiceOf } from '../../domain/bookings/stay-total';

const clients = () => import('../../domain/clients');
const actions = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/bookings')]);
const changes = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/booking-changes'), import('../../domain/bookings/assign-room')]);

/** The booking as `bookings list` shows it, with its room's number. */
async function bookingWithRoom(clientId: string, booking: BookingRecord) {
  const [{ bookingView }, { roomNames }] = await Promise.all([import('../../domain/bookings/list-bookings'), import('../../domain/bookings/room-names')]);
  const rooms = booking.room_id ? await roomNames(clientId, [booking.room_id]) : new Map<string, { number: string }>();
  return bookingView(booking, (id) => rooms.get(id)?.number);
}

/** `--refund full|none|AMOUNT_MINOR`. */
function refundChoice(value: string | undefined): 'full' | 'none' | number {
  if (value === undefined || value === 'none' || value === 'full') return value ?? 'none';
  if (/^[1-9]\d{0,14}$/.test(value)) return Number(value);
  throw new UsageError(`--refund must be full, none or an amount in minor units (a whole number from 1), not ${value}`);
}

/** An amount in major units with its currency, in the currency's decimals ("807.00 USD", "12000 JPY"). */
const money = (amount: number, currency: string) => `${amount.toFixed(minorUnits(currency))} ${currency}`;

const roomText = (b: { room_id: string | null; room_number: string | null }) => (b.room_id ? `${b.room_number ?? '?'} (${b.room_id})` : '(none)');

export const bookingCommands: readonly Command[] = [
  defineCommand({
    name: 'bookings create',
    summary: 'Make a confirmed reception booking on a free room (emits booking.confirmed)',
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      room: { value: 'ROOM_ID', help: 'The room (see rooms list)', required: true },
      'guest-name': { value: 'NAME', help: 'Guest name', required: true },
      'guest-email': { value: 'EMAIL', help: 'Guest e-mail (this, --guest-phone or both)' },
      'guest-phone': { value: 'PHONE', help: 'Guest phone in international format, e.g. +44 20 7946 0958' },
      'check-in': { value: 'YYYY-MM-DD', help: 'Check-in date', required: true },
      'check-out': { value: 'YYYY-MM-DD', help: 'Check-out date', required: true },
      guests: { value: 'N', help: 'Number of guests', required: true },
      'total-amount': { value: 'X', help: "Total in the client's currency", required: true },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const [{ cliActor }, { createDeskBooking }] = await actions();
      const confirmed = await createDeskBooking(cliActor(flags.client), flags.room, {
        guest_name: flags['guest-name'],
        guest_email: flags['guest-email'],
        guest_phone: flags['guest-phone'],
        check_in_date: flags['check-in'],
        check_out_date: flags['check-out'],
        guests: flags.guests,
        total_amount: flags['total-amount'],
      });
      return {
        booking_id: confirmed.booking.id,
        booking_reference: confirmed.booking.booking_reference!,
        confirmation_code: confirmed.booking.confirmation_code!,
      };
    },
    render: (result) =>
      fields([
        ['booking_id', result.booking_id],
        ['booking_reference', result.booking_reference],
        ['confirmation_code', result.confirmation_code],
      ]),
  }),

  defineCommand({
    name: 'bookings list',
    summary: "List a client's bookings of every origin (sync, reception, payment) in check-in order",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      from: { value: 'YYYY-MM-DD', help: 'Only stays with a night on or after this date' },
      to: { value: 'YYYY-MM-DD', help: 'Only stays with a night on or before this date' },
      status: { value: 'S', help: 'Only this status', choices: BOOKING_STATUSES },
      origin: { value: 'O', help: 'Only this origin', choices: BOOKING_ORIGINS },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const { bookings } = await (await import('../../domain/bookings/list-bookings')).listClientBookings(flags.client, {
        from: flags.from,
        to: flags.to,
        status: flags.status,
        origin: flags.origin,
      });
      const order = (b: (typeof bookings)[number]) => `${b.check_in_date}#${b.check_out_date}#${b.booking_id}`;
      return { bookings: bookings.sort((a, b) => order(a).localeCompare(order(b))) };
    },
    render: ({ bookings }) =>
      bookings.length
        ? bookings
            .map(
              (b) =>
                `${b.check_in_date} → ${b.check_out_date}  ${b.status.padEnd(11)} ${b.origin.padEnd(9)} ` +
                `${b.room_number ? `room ${b.room_number}` : b.awaiting_room ? 'AWAITING ROOM' : '(no room)'}  ${b.guest_name}  ${b.booking_id}` +
                (b.below_rate ? '  PAID BELOW RATE' : ''),
            )
            .join('\n')
        : 'No bookings.',
  }),

  defineCommand({
    name: 'bookings reindex',
    summary:
      "Give bookings written by versions before the check-in order and nights indexes (Bookings list, Reports) and the dashboard's search their index attributes and search entries (one client, or every client); safe to run again",
    flags: {
      client: { value: 'ID', help: 'Only this client (default: every client)' },
    },
    async run({ flags }) {
      if (flags.client) await (await clients()).requireClient(flags.client);
      return (await import('../../domain/bookings/reindex-bookings')).reindexBookings({ clientId: flags.client });
    },
    render: (result) =>
      fields([
        ['clients', String(result.clients)],
        ['bookings', String(result.bookings)],
        ['bookings given the index', String(result.reindexed)],
      ]),
  }),

  defineCommand({
    name: 'bookings assign',
    summary: 'Give a paid booking recorded for manual assignment a room (emits booking.confirmed again, with the room)',
    flags: {
      room: { value: 'ROOM_ID', help: "A room of the booking's client, free for the whole stay (see rooms list)", required: true },
    },
    positionals: [{ name: 'BOOKING_ID', help: 'The booking (see bookings list; the order status names it as service_booking_sync.booking_id)' }],
    async run({ args, flags }) {
      const [assign, list, [{ cliActor }, { assignRoom }]] = await Promise.all([
        import('../../domain/bookings/assign-room'),
        import('../../domain/bookings/list-bookings'),
        actions(),
      ]);
      const clientId = await assign.findBookingClient(args.BOOKING_ID);
      const { booking, room, delivery_id } = await assignRoom(cliActor(clientId), args.BOOKING_ID, flags.room);
      return { ...list.bookingView(booking, () => room.room_number), delivery_id: delivery_id ?? null };
    },
    render: (result) =>
      fields([
        ['booking_id', result.booking_id],
        ['room', `${result.room_number} (${result.room_id})`],
        ['stay', `${result.check_in_date} → ${result.check_out_date}`],
        ['booking.confirmed', result.delivery_id ? `delivery ${result.delivery_id}` : 'not sent (no callback URL)'],
      ]),
  }),

  defineCommand({
    name: 'bookings cancel',
    summary: 'Cancel a booking the service made: its nights are free at once (emits booking.cancelled); optionally refund its paid order',
    flags: {
      reason: { value: 'R', help: 'Why: kept with the booking and sent with booking.cancelled; never told to the guest' },
      message: { value: 'TEXT', help: "A message to the guest: the only words of the cancellation their e-mail carries" },
      'asked-by': { value: 'guest|hotel', help: "Who asked for the cancellation: the guest's e-mail says so", default: 'hotel' },
      refund: { value: 'full|none|AMOUNT_MINOR', help: "Refund the booking's paid order: all that is left, nothing, or an amount in minor units", default: 'none' },
    },
    positionals: [{ name: 'BOOKING_ID', help: 'The booking (see bookings list)' }],
    async run({ args, flags }) {
      const refund = refundChoice(flags.refund);
      const [{ cliActor }, { cancelBooking }, { findBookingClient }] = await changes();
      const clientId = await findBookingClient(args.BOOKING_ID);
      const cancelled = await cancelBooking(cliActor(clientId), args.BOOKING_ID, {
        ...(flags.reason ? { reason: flags.reason } : {}),
        ...(flags.message ? { guestMessage: flags.message } : {}),
        askedBy: flags['asked-by'] === 'guest' ? 'guest' : 'hotel',
        refund,
      });
      const { booking } = cancelled;
      return {
        ...(await bookingWithRoom(clientId, booking)),
        cancellation_reason: booking.cancellation_reason ?? null,
        cancelled_at: booking.cancelled_at ?? null,
        cancelled_by: booking.cancelled_by ?? null,
        repeated: cancelled.repeated === true,
        delivery_id: cancelled.delivery_id ?? null,
        refund: cancelled.refund ?? null,
        refund_error: cancelled.refund_error ?? null,
      };
    },
    render: (result) =>
      fields([
        ['booking_id', result.booking_id],
        ['status', result.repeated ? `${result.status} (already: nothing changed)` : result.status],
        ['reason', result.cancellation_reason ?? '(none)'],
        ['room freed', roomText(result)],
        ['stay', `${result.check_in_date} → ${result.check_out_date}`],
        ['booking.cancelled', result.delivery_id ? `delivery ${result.delivery_id}` : result.repeated ? 'sent with the first cancel, if any' : 'not sent (no callback URL)'],
        [
          'refund',
          result.refund
            ? `${result.refund.amount_minor} ${result.refund.currency} minor units, ${result.refund.status} (${result.refund.refund_id})`
            : result.refund_error
              ? `FAILED ${result.refund_error.code}: ${result.refund_error.message} (cancel again to retry it)`
              : result.payment_order_reference
                ? 'none'
                : 'none (no paid order)',
        ],
      ]),
  }),

  defineCommand({
    name: 'bookings modify',
    summary: "Change a confirmed booking's dates, room or guests under the availability rules (emits booking.modified)",
    flags: {
      'check-in': { value: 'YYYY-MM-DD', help: 'New check-in date' },
      'check-out': { value: 'YYYY-MM-DD', help: 'New check-out date' },
      room: { value: 'ROOM_ID', help: 'Another room of the client, free for the stay (see rooms list)' },
      guests: { value: 'N', help: 'New number of guests' },
      total: {
        value: 'recalculate|keep|AMOUNT',
        help: "The new total: recalculated from the room's rates for the new stay (a taxed booking with the hotel's taxes), kept as it is, or what the guest pays in all, in the hotel's currency (such as 807.00)",
        default: 'recalculate',
      },
    },
    positionals: [{ name: 'BOOKING_ID', help: 'The booking (see bookings list)' }],
    async run({ args, flags }) {
      const given = flags['check-in'] ?? flags['check-out'] ?? flags.room ?? flags.guests;
      if (given === undefined) throw new UsageError('give at least one of --check-in, --check-out, --room, --guests');
      const total = totalChoiceOf(flags.total);
      if (total === undefined) throw new UsageError(`--total must be recalculate, keep or an amount such as 807.00, not ${flags.total}`);
      if (flags.guests !== undefined && !/^[1-9]\d{0,4}$/.test(flags.guests)) throw new UsageError(`--guests must be a whole number from 1, not ${flags.guests}`);
      const [{ cliActor }, { modifyBooking }, { findBookingClient }] = await changes();
      const clientId = await findBookingClient(args.BOOKING_ID);
      const changed = await modifyBooking(cliActor(clientId), args.BOOKING_ID, {
        ...(flags['check-in'] !== undefined ? { check_in_date: flags['check-in'] } : {}),
        ...(flags['check-out'] !== undefined ? { check_out_date: flags['check-out'] } : {}),
        ...(flags.room !== undefined ? { room_id: flags.room } : {}),
        ...(flags.guests !== undefined ? { guests: Number(flags.guests) } : {}),
        total,
      });
      const { currency } = await (await clients()).requireClient(clientId);
      return { ...(await bookingWithRoom(clientId, changed.booking)), total_amount: changed.booking.total_amount ?? null, currency, delivery_id: changed.delivery_id ?? null };
    },
    render: (result) =>
      fields([
        ['booking_id', result.booking_id],
        ['room', roomText(result)],
        ['stay', `${result.check_in_date} → ${result.check_out_date}`],
        ['guests', String(result.guests)],
        ['total', result.total_amount === null ? '(none)' : `${money(bookingMoney(result).owed, result.currency)}${result.taxes_amount ? ` (taxes ${money(result.taxes_amount, result.currency)})` : ''}`],
        ['booking.modified', result.delivery_id ? `delivery ${result.delivery_id}` : 'not sent (no callback URL)'],
      ]),
  }),
];
