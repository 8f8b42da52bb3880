/** One booking's page, and a room for a paid booking recorded for manual assignment ("Assign room"). */
import { listAudit, type AuditEntry } from '../../domain/audit';
import { assignBookingRoom } from '../../domain/bookings/assign-room';
import { type BookingView } from '../../domain/bookings/list-bookings';
import { confirmationEmailOf } from '../../domain/guest-email/outbox';
import { findAvailableRooms } from '../../domain/property-sync/availability';
import type { EmailRecord } from '../../store/email-store';
import { formatTime as when } from '../format';
import { Dl, Empty, NoticeBox, Page, Select, Table } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';

import { AssignRoomButton, LIST, amount, assignPath, audit, bookingPath, bookingTitle, isRefusal, nights, requireBooking, roomLabel } from './bookings-common';

// ---- one booking

function HistoryTable({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <Empty>No operator has acted on this booking.</Empty>;
  return (
    <Table head={['When', 'Operator', 'Action', 'Changes']}>
      {entries.map((entry) => (
        <tr>
          <td>{when(entry.at)}</td>
          <td>{entry.operator}</td>
          <td>{entry.action}</td>
          <td>
            {Object.entries(entry.changes)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, value]) => `${name}: ${value === null ? '—' : String(value)}`)
              .join(', ') || '—'}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** What became of a guest booking's confirmation e-mail, for staff. */
function emailStatus(email: EmailRecord): string {
  const tries = `${email.attempts} ${email.attempts === 1 ? 'try' : 'tries'}`;
  switch (email.status) {
    case 'sent':
      return `sent at ${when(email.sent_at)} to ${email.to}`;
    case 'pending':
      return `not sent yet (to ${email.to})`;
    case 'retrying':
      return `failed, will retry at ${when(email.due_at)} (${tries} to ${email.to}; last error: ${email.last_error ?? 'unknown'})`;
    case 'failed':
      return `failed after ${tries} to ${email.to}, not retried (last error: ${email.last_error ?? 'unknown'})`;
    case 'expired':
      return 'not sent: it was no longer needed';
  }
}

export const bookingPage: PageAction = async (request) => {
  const { operator, links } = request;
  const booking = await requireBooking(request);
  const [{ entries }, email] = await Promise.all([
    listAudit(operator.client_id, { target: booking.booking_id }),
    // Guest bookings only: the e-mail that told the guest (CONTRACT.md "Guest booking").
    confirmationEmailOf(operator.client_id, booking.booking_id),
  ]);
  const b = booking;
  return {
    html: (
      <Page title={bookingTitle(b)} links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(LIST)}>All bookings</a>
        </p>
        {b.awaiting_room ? (
          <div class="actions">
            <strong>This paid booking is waiting for a room.</strong>
            <AssignRoomButton links={links} booking={b} />
          </div>
        ) : null}
        <Dl
          rows={[
            ['Guest name', b.guest_name],
            ['Guest email', b.guest_email],
            ['Guests', b.guests],
            ['Check-in', b.check_in_date],
            ['Check-out', b.check_out_date],
            ['Nights', nights(b)],
            ['Room', b.room_number ?? (b.awaiting_room ? 'Awaiting a room' : null)],
            ['Status', b.status],
            ['Origin', b.origin],
            ['Payment status', b.payment_status],
            ['Payment method', b.payment_method],
            ['Total amount', b.total_amount === null ? null : amount(b.total_amount)],
            ...(b.below_rate ? [['Rate check', <strong class="status-failed">Paid below the room's rate (or in another currency): check the payment before the guest arrives</strong>] as const] : []),
            ['Booking reference', b.booking_reference],
            ['Confirmation code', b.confirmation_code],
            ...(email ? [['Confirmation e-mail', emailStatus(email)] as const] : []),
            [
              'Payment order',
              b.payment_order_reference ? <a href={links.to(`/dashboard/payments/${encodeURIComponent(b.payment_order_reference)}`)}>{b.payment_order_reference}</a> : null,
            ],
            ['External source', b.external_source],
            ['External booking id', b.external_booking_id],
            ['Booking id', <code>{b.booking_id}</code>],
            ['Created', when(b.created_at)],
            ['Updated', when(b.updated_at)],
          ]}
        />
        <h2>History</h2>
        <HistoryTable entries={entries} />
      </Page>
    ),
  };
};

// ---- assigning a room

async function assignRoomPage(request: PageRequest, booking: BookingView, options: { roomId?: string; error?: string; status?: number } = {}): Promise<PageOutcome> {
  const { operator, links } = request;
  const b = booking;
  let body;
  if (!b.awaiting_room) {
    const why = b.room_number ? `This booking already has room ${b.room_number}.` : 'Only a paid booking waiting for a room can be given one here.';
    body = <NoticeBox notice={{ kind: 'error', message: options.error ?? why }} />;
  } else {
    // Only the active rooms large enough and free for every night of the stay (the availability rules).
    const { available_rooms } = await findAvailableRooms(operator.client_id, { check_in_date: b.check_in_date, check_out_date: b.check_out_date, guests: b.guests });
    const options_ = [{ value: '', label: 'Choose a room' }, ...available_rooms.map((room) => ({ value: room.id, label: roomLabel(room) }))];
    body = (
      <>
        {available_rooms.length === 0 ? <Empty>No room is free for every night of this stay.</Empty> : null}
        <form method="post" action={links.to(assignPath(b.booking_id))}>
          <Select label="Room" name="room_id" value={options.roomId ?? ''} options={options_} error={options.error} />
          <button type="submit">Assign</button>
        </form>
      </>
    );
  }
  return {
    status: options.status ?? (b.awaiting_room ? 200 : 409),
    html: (
      <Page title="Assign room" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(bookingPath(b.booking_id))}>{bookingTitle(b)}</a>
        </p>
        <Dl
          rows={[
            ['Guest name', b.guest_name],
            ['Guests', b.guests],
            ['Check-in', b.check_in_date],
            ['Check-out', b.check_out_date],
            ['Nights', nights(b)],
            ['Payment status', b.payment_status],
          ]}
        />
        {body}
      </Page>
    ),
  };
}

export const assignRoomForm: PageAction = async (request) => assignRoomPage(request, await requireBooking(request));

export const assignRoom: PageAction = async (request) => {
  const booking = await requireBooking(request);
  const roomId = (request.form.get('room_id') ?? '').trim();
  if (!roomId) return assignRoomPage(request, booking, { error: 'Choose a room', status: 400 });
  let assigned;
  try {
    assigned = await assignBookingRoom(request.operator.client_id, booking.booking_id, roomId, request.now);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    // The booking as it is now (another operator may just have given it a room).
    const current = await requireBooking(request);
    return assignRoomPage(request, current, { roomId, error: error.message, status: error.status });
  }
  const { booking: updated, room, delivery_id } = assigned;
  await audit(request, 'booking.assign_room', updated.id, {
    room_id: room.id,
    room_number: room.room_number,
    check_in_date: updated.check_in_date,
    check_out_date: updated.check_out_date,
    booking_confirmed_delivery: delivery_id ?? null,
  });
  return { redirect: bookingPath(updated.id), notice: { kind: 'success', message: `Room ${room.room_number} assigned` } };
};

