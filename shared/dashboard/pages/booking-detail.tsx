/**
 * One booking's page: its facts on top (guest, stay, room by number and category, status, how it
 * was made, total with currency, references), then its whole story in words, newest first
 * (shared/domain/bookings/booking-story.ts); "Change", "Cancel booking" and "Mark no-show" for a
 * booking the service made (./booking-changes.tsx); "Refund" for a paid-order booking
 * (./refund-form.tsx); and "Assign room" for a paid booking recorded for manual assignment,
 * offering the rooms free for its stay with their category and price a night.
 */
import type { VNode } from 'preact';
import { bookingMoney } from '../../domain/bookings/booking-money';
import type { BookingStory } from '../../domain/bookings/booking-story';
import { bookingRoom, type RoomName, roomNames } from '../../domain/bookings/room-names';
import { findClient } from '../../domain/clients';
import { assignRoom as assignBookingRoom } from '../../domain/operator-actions/bookings';
import { findAvailableRooms } from '../../domain/property-sync/availability';
import { type AppError, errors } from '../../errors';
import { formatDate, formatPrice, formatTime, inWords } from '../format';
import { Dl, Empty, ErrorSummary, NoticeBox, Page, Select } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { BookingActions } from './booking-changes';
import { type BookingFacts, bookingFactsOf, bookingIdOf, titleOf } from './booking-facts';
import { BookingHistory, roomName, WAYS } from './booking-history';
import { LIST, assignPath, bookingPath, isRefusal, nights } from './bookings-common';
import { orderRefunds, RefundForm, type RefundableOrder, refundLeft, RefundsList } from './refund-form';
import { confirmRefund, type RefundPlace, refundPage } from './refund-page';

// ---- one booking

type BookingRecord = BookingStory['booking'];

const notFound = errors.noSuchBooking;

const refundPath = (bookingId: string) => `${bookingPath(bookingId)}/refund`;

const CANCELLED_BY: Record<NonNullable<BookingRecord['cancelled_by']>, string> = { staff: 'Staff', guest: 'The guest', pms: 'Your PMS' };

/** Who cancelled it: the operator named by the staff action, else the guest or the PMS. */
function cancelledBy(story: BookingStory, zone: string): string {
  const b = story.booking;
  const staff = story.entries.find((entry) => entry.kind === 'staff' && entry.entry.action === 'booking.cancel');
  const who = staff?.kind === 'staff' ? staff.entry.operator : b.cancelled_by ? CANCELLED_BY[b.cancelled_by] : 'Unknown';
  const asked = b.cancelled_by === 'staff' && b.cancellation_asked_by === 'guest' ? ' (the guest asked)' : '';
  return `${who}${asked}${b.cancelled_at ? `, ${formatTime(zone, b.cancelled_at)}` : ''}`;
}

/** What became of a guest booking's confirmation e-mail, as it stands now (its history says when). */
function emailState(email: Extract<BookingStory['entries'][number], { kind: 'email' }>, zone: string): string {
  const tries = `${email.attempts} ${email.attempts === 1 ? 'try' : 'tries'}`;
  switch (email.status) {
    case 'sent':
      return `sent at ${formatTime(zone, email.at)} to ${email.to}`;
    case 'pending':
      return `not sent yet (to ${email.to})`;
    case 'retrying':
      return `failed, will retry at ${formatTime(zone, email.next_at)} (${tries} to ${email.to}; last error: ${email.last_error ?? 'unknown'})`;
    case 'failed':
      return `failed after ${tries} to ${email.to}, not retried (last error: ${email.last_error ?? 'unknown'})`;
    case 'expired':
      return 'not sent: it was no longer needed';
  }
}

/** The booking as it stands: who, when, which room, how it was made and paid, its references. */
function Facts({ story, request, zone }: { story: BookingStory; request: PageRequest; zone: string }) {
  const { booking: b, room, order } = story;
  const made = story.entries.find((entry) => entry.kind === 'booked');
  const email = story.entries.find((entry) => entry.kind === 'email' && entry.email_kind === 'booking_confirmation');
  const link = (path: string, text: string) => <a href={request.links.to(path)}>{text}</a>;
  const money = bookingMoney(b, order ? { status: order.status, amount_minor: order.amount_minor, currency: order.currency, amount_refunded_minor: order.refunded_minor } : null);
  return (
    <Dl
      rows={[
        ['Guest name', b.guest_name],
        ['Guest email', b.guest_email || null],
        ...(b.guest_phone ? [['Guest phone', b.guest_phone] as const] : []),
        ['Guests', b.guests],
        ['Check-in', formatDate(b.check_in_date)],
        ['Check-out', formatDate(b.check_out_date)],
        ['Nights', nights(b)],
        ['Room', room ? roomName(room) : story.awaiting_room ? 'No room yet' : b.room_id ? 'A room no longer there' : 'No room'],
        ['Status', inWords(b.status)],
        ...(b.status === 'cancelled'
          ? ([
              ['Cancelled by', cancelledBy(story, zone)],
              ['Cancellation reason', b.cancellation_reason ?? 'None given'],
              ...(b.guest_message ? ([['Message to the guest', b.guest_message]] as const) : []),
            ] as const)
          : []),
        ...(b.status === 'no_show' && b.no_show_at ? [['Marked no-show', formatTime(zone, b.no_show_at)] as const] : []),
        ['Origin', made?.kind === 'booked' ? WAYS[made.way] : inWords(b.origin)],
        ['Payment', money.words],
        ...(b.taxes_amount && b.total_amount !== undefined
          ? ([
              ['Room price', formatPrice(b.total_amount, story.currency)],
              ['Taxes', formatPrice(b.taxes_amount, story.currency)],
            ] as const)
          : []),
        ['Total', b.total_amount === undefined ? null : formatPrice(money.owed, story.currency)],
        ['Balance due', formatPrice(money.balance_due, story.currency)],
        ...(b.below_rate
          ? [['Rate check', <strong class="status-failed">Paid below the room's rate (or in another currency): check the payment before the guest arrives</strong>] as const]
          : []),
        ['Booking reference', b.booking_reference ?? null],
        ['Confirmation code', b.confirmation_code ?? null],
        ...(email?.kind === 'email' ? [['Confirmation e-mail', emailState(email, zone)] as const] : []),
        ...(b.external_booking_id ? [['PMS booking', `${b.external_booking_id} (${b.external_source ?? 'PMS'})`] as const] : []),
        ...(order ? [['Payment order', link(`/dashboard/payments/${encodeURIComponent(order.order_reference)}`, order.order_reference)] as const] : []),
      ]}
    />
  );
}

/** A paid order's refunds on its booking's page: what is refunded, each refund, and "Refund" while something is left. */
async function refundsSection(facts: BookingFacts, request: PageRequest): Promise<VNode | null> {
  const reference = facts.story.order?.order_reference;
  const found = reference ? await orderRefunds(request.operator.client_id, reference) : undefined;
  if (!found) return null;
  const { order, refunds } = found;
  return (
    <>
      <h2>Refunds</h2>
      <RefundsList refunds={refunds} order={order} zone={facts.clock.timeZone} />
      {refundLeft(order) > 0 ? <RefundForm links={request.links} action={refundPath(facts.story.booking.id)} order={order} /> : null}
    </>
  );
}

function bookingView(request: PageRequest, facts: BookingFacts, refunds: VNode | null): PageOutcome {
  const { operator, links } = request;
  const { story } = facts;
  const b = story.booking;
  // While a notification to the PMS waits to be sent (just made, or retried), the page looks again shortly.
  const sending = story.entries.some((entry) => entry.kind === 'pms_notification' && entry.status === 'pending');
  return {
    html: (
      <Page title={titleOf(b)} links={links} operator={operator} nav="bookings" notice={request.notice} refreshSeconds={sending ? 5 : undefined}>
        <p>
          <a href={links.to(LIST)}>All bookings</a>
        </p>
        {story.awaiting_room ? (
          <div class="actions">
            <strong>This paid booking is waiting for a room.</strong>
            <form method="get" action={links.to(assignPath(b.id))} class="inline">
              <button type="submit">Assign room</button>
            </form>
          </div>
        ) : null}
        <BookingActions booking={b} links={links} clock={facts.clock} />
        <Facts story={story} request={request} zone={facts.clock.timeZone} />
        {refunds}
        <h2>History</h2>
        <BookingHistory entries={story.entries} links={links} currency={story.currency} moreStaffActions={story.more_staff_actions} zone={facts.clock.timeZone} />
      </Page>
    ),
  };
}

export const bookingPage: PageAction = async (request) => {
  const facts = await bookingFactsOf(request);
  return bookingView(request, facts, await refundsSection(facts, request));
};

/** The booking's refund page, or its page back with a notice when it has no online payment to refund. */
async function bookingRefund(request: PageRequest): Promise<{ place: RefundPlace; order: RefundableOrder } | { redirect: string }> {
  const facts = await bookingFactsOf(request);
  const b = facts.story.booking;
  const reference = facts.story.order?.order_reference;
  const order = reference ? (await orderRefunds(request.operator.client_id, reference))?.order : undefined;
  const back = bookingPath(b.id);
  if (!order) return { redirect: back };
  return { place: { subject: titleOf(b), back, path: refundPath(b.id), guest: b.guest_name, nav: 'bookings' }, order };
}

const NOTHING_TO_REFUND = { kind: 'error', message: 'This booking has no online payment to refund.' } as const;

/** "Refund" on the booking's page opens this page: the amount, a reason, "Confirm refund". */
export const refundBookingPage: PageAction = async (request) => {
  const found = await bookingRefund(request);
  if ('redirect' in found) return { redirect: found.redirect, notice: NOTHING_TO_REFUND };
  return refundPage(request, found.place, found.order);
};

/** "Confirm refund": its paid order refunded (refundOrder, audited), or the page back with the refusal. */
export const refundBooking: PageAction = async (request) => {
  const found = await bookingRefund(request);
  if ('redirect' in found) return { redirect: found.redirect, notice: NOTHING_TO_REFUND };
  return confirmRefund(request, found.place, found.order);
};

// ---- assigning a room

interface AssignForm {
  roomId?: string;
  error?: string;
  status?: number;
}

/** "101 · Deluxe · 120.00 EUR a night". */
const roomOption = (room: { room_number: string; room_type: string; price: number; category: { name: string } | null }, currency: string) =>
  `${room.room_number} · ${room.category?.name ?? room.room_type} · ${formatPrice(room.price, currency)} a night`;

async function ownBooking(request: PageRequest) {
  const found = await bookingRoom(request.operator.client_id, bookingIdOf(request));
  if (!found) throw notFound();
  return found;
}

async function assignRoomPage(request: PageRequest, found: { booking: BookingRecord; room: RoomName | null; awaiting_room: boolean }, form: AssignForm = {}): Promise<PageOutcome> {
  const { operator, links } = request;
  const { booking: b, room } = found;
  let body;
  if (!found.awaiting_room) {
    const why = room ? `This booking already has room ${room.number} (${room.category}).` : 'Only a paid booking waiting for a room can be given one here.';
    body = <NoticeBox notice={{ kind: 'error', message: why }} />;
  } else {
    // Only the active rooms large enough and free for every night of the stay (the availability
    // rules); rules of stay do not apply: the booking is sold already.
    const [{ available_rooms }, client] = await Promise.all([
      findAvailableRooms(operator.client_id, { check_in_date: b.check_in_date, check_out_date: b.check_out_date, guests: b.guests }, request.now, { restrictions: false }),
      findClient(operator.client_id),
    ]);
    const currency = client?.currency ?? '';
    const options = [{ value: '', label: 'Choose a room' }, ...available_rooms.map((r) => ({ value: r.id, label: roomOption(r, currency) }))];
    body = (
      <>
        <ErrorSummary errors={{ room_id: form.error }} labels={{ room_id: 'Room' }} />
        {available_rooms.length === 0 ? <Empty>No room is free for every night of this stay.</Empty> : null}
        <form method="post" action={links.to(assignPath(b.id))}>
          <Select label="Room" name="room_id" value={form.roomId ?? ''} options={options} error={form.error} />
          <button type="submit">Assign</button>
        </form>
      </>
    );
  }
  return {
    status: form.status ?? (found.awaiting_room ? 200 : 409),
    html: (
      <Page title="Assign room" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(bookingPath(b.id))}>{titleOf(b)}</a>
        </p>
        <Dl
          rows={[
            ['Guest name', b.guest_name],
            ['Guests', b.guests],
            ['Check-in', formatDate(b.check_in_date)],
            ['Check-out', formatDate(b.check_out_date)],
            ['Nights', nights(b)],
            ['Payment', inWords(b.payment_status)],
          ]}
        />
        {body}
      </Page>
    ),
  };
}

export const assignRoomForm: PageAction = async (request) => assignRoomPage(request, await ownBooking(request));

/** A refusal of the assignment in words, naming the room by number (never its id). */
async function refusalMessage(request: PageRequest, error: AppError, roomId: string): Promise<string> {
  if (error.code === 'NOT_FOUND') return 'Choose a room from the list';
  if (error.code === 'ROOM_NOT_AVAILABLE') {
    const room = (await roomNames(request.operator.client_id, [roomId])).get(roomId);
    // "Cannot assign room 101 (…): the room is already booked for some of these nights": the reason.
    const reason = error.message.slice(error.message.indexOf(': ') + 2);
    return `Room ${room?.number ?? ''} cannot be given to this booking: ${reason}`.replace('Room  ', 'The room ');
  }
  if (error.status === 503) return 'Rooms are being assigned by someone else right now: try again';
  return 'This booking cannot be given a room';
}

export const assignRoom: PageAction = async (request) => {
  const found = await ownBooking(request);
  const roomId = (request.form.get('room_id') ?? '').trim();
  if (!roomId) return assignRoomPage(request, found, { error: 'Choose a room', status: 400 });
  let assigned;
  try {
    assigned = await assignBookingRoom(request.operator, found.booking.id, roomId, request.now);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    // The booking as it is now (another operator may just have given it a room).
    const current = await ownBooking(request);
    const message = current.awaiting_room ? await refusalMessage(request, error, roomId) : undefined;
    return assignRoomPage(request, current, { roomId, error: message, status: error.status });
  }
  const { booking: updated, room } = assigned;
  return { redirect: bookingPath(updated.id), notice: { kind: 'success', message: `Room ${room.room_number} assigned` } };
};
