/**
 * `bookings ...`: reception bookings made, a client's bookings listed, reindexed, and given a
 * room; making and giving a room are the reception's use cases, audited as the operator CLI.
 */
import { BOOKING_ORIGINS } from '../../schemas/bookings';
import { BOOKING_STATUSES } from '../../schemas/property-sync';
import { type Command, defineCommand } from '../cli';
import { fields } from '../format';

const clients = () => import('../../domain/clients');
const actions = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/bookings')]);

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
      "Give bookings written by versions before the check-in order index and the dashboard's search their index attributes and search entries (one client, or every client); safe to run again",
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
];
