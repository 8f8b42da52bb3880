/**
 * A booking's history in words, newest first (the booking page's "History"): each step of its
 * story as a sentence with its time, a notification to the PMS that failed or was refused with
 * its "Retry" (the Deliveries page's action, brought back to the booking), never an id.
 */
import type { BookingWay, StoryEntry } from '../../domain/bookings/booking-story';
import type { RoomName } from '../../domain/bookings/room-names';
import { auditSentence } from '../audit-words';
import { formatTime, inWords, orderAmount } from '../format';
import { Empty, type Links } from '../layout';

export const roomName = (room: RoomName) => `Room ${room.number} (${room.category})`;

/** How a booking was made, for its facts. */
export const WAYS: Record<BookingWay, string> = {
  pms: 'From your PMS',
  reception: 'Reception',
  booking_page_at_hotel: 'Your booking page, paying at the hotel',
  booking_page_paid: 'Your booking page, paid online',
  online_paid: 'Paid online',
};

const times = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const ATTEMPT_OUTCOMES: Record<string, string> = {
  open: 'opened: waiting for the guest to pay',
  paid: 'paid',
  failed: 'declined',
  cancelled: 'cancelled by the guest',
  expired: 'expired unpaid',
};

/** Events the PMS is told of, beyond the first confirmation. */
const PMS_EVENTS: Record<string, string> = {
  'booking.confirmed': '',
  'booking.modified': 'The change',
  'booking.cancelled': 'The cancellation',
  'booking.no_show': 'The no-show',
};

type Entry<K extends StoryEntry['kind']> = Extract<StoryEntry, { kind: K }>;

function booked(entry: Entry<'booked'>, links: Links) {
  const order = entry.order;
  const orderLink = order ? <a href={links.to(`/dashboard/payments/${encodeURIComponent(order.order_reference)}`)}>{order.order_reference}</a> : null;
  const paid = order ? orderAmount(order.paid_minor, order.currency) : '';
  const noRoom = entry.without_room ? '; no room was given to it then: staff assign one' : '';
  switch (entry.way) {
    case 'pms':
      return `Received from your PMS${entry.external_booking_id ? ` (${entry.external_source ?? 'PMS'} booking ${entry.external_booking_id})` : ''}`;
    case 'reception':
      return entry.operator ? `Booked at reception by ${entry.operator}` : 'Booked at reception';
    case 'booking_page_at_hotel':
      return 'Booked on your booking page to pay at the hotel, and confirmed by the guest from the e-mail';
    case 'booking_page_paid':
    case 'online_paid':
      return (
        <>
          {entry.way === 'online_paid' ? 'Booked online' : 'Booked on your booking page'} and paid {paid}
          {orderLink ? <> (order {orderLink})</> : null}
          {noRoom}
        </>
      );
  }
}

/** A notification to the PMS: its state in words, "Retry" when it failed or was refused, its details. */
function notification(entry: Entry<'pms_notification'>, links: Links, id: string, zone: string) {
  const what = PMS_EVENTS[entry.event] ?? inWords(entry.event.replace(/\./g, '_'));
  const room = entry.event === 'booking.confirmed' ? (entry.room_number ? ` with room ${entry.room_number}` : ' without a room') : '';
  const subject = what ? `${what} sent to your PMS` : `Sent to your PMS${room}`;
  const failing = what ? `Sending ${what.toLowerCase()} to your PMS` : `Sending to your PMS${room}`;
  const error = entry.last_error ? ` (last error: ${entry.last_error})` : '';
  const failed = `${failing} failed after ${times(entry.attempts, 'attempt', 'attempts')}${error}`;
  const refused = `${subject}: refused by your PMS${error}`;
  const stateOf = () => {
    if (entry.replaced_by_room !== false && (entry.status === 'failed' || entry.status === 'needs_review')) {
      // Nothing to do: the later notification tells the PMS the booking as it is now.
      const later = entry.replaced_by_room ? `the later one, with room ${entry.replaced_by_room},` : 'a later one';
      return `${entry.status === 'failed' ? failed : refused}; no need to retry: ${later} replaces it`;
    }
    switch (entry.status) {
      case 'delivered':
        return `${subject}: delivered`;
      case 'pending':
        return `${subject}: waiting to be sent`;
      case 'retrying':
        return `${failing} failed ${times(entry.attempts, 'time', 'times')}; trying again at ${formatTime(zone, entry.next_at)}${error}`;
      case 'failed':
        return <strong class="status-failed">{failed}</strong>;
      case 'needs_review':
        return <strong class="status-failed">{`${refused}. Check your PMS, then retry`}</strong>;
    }
  };
  return (
    <>
      <span id={id}>{stateOf()}</span>{' '}
      {entry.retryable ? (
        <form method="post" action={links.to(`/dashboard/deliveries/${encodeURIComponent(entry.delivery_id)}/retry`)} class="inline">
          <input type="hidden" name="back" value="booking" />
          <button type="submit" aria-describedby={id}>
            Retry
          </button>
        </form>
      ) : null}{' '}
      <a href={links.to(`/dashboard/deliveries/${encodeURIComponent(entry.delivery_id)}`)} aria-describedby={id}>
        Details
      </a>
    </>
  );
}

const EMAIL_KINDS: Record<Entry<'email'>['email_kind'], string> = {
  booking_confirmation: 'Confirmation e-mail',
  confirm_booking: '"Confirm your booking" e-mail',
  booking_modified: 'E-mail about the change',
  booking_cancelled: 'Cancellation e-mail',
  refund: 'Refund e-mail',
};

function email(entry: Entry<'email'>, zone: string) {
  const kind = EMAIL_KINDS[entry.email_kind] ?? 'E-mail';
  const tries = times(entry.attempts, 'try', 'tries');
  const error = entry.last_error ? `; last error: ${entry.last_error}` : '';
  switch (entry.status) {
    case 'sent':
      return `${kind} sent to ${entry.to}`;
    case 'pending':
      return `${kind} to ${entry.to}: not sent yet`;
    case 'retrying':
      return <strong class="status-failed">{`${kind} to ${entry.to} failed; trying again at ${formatTime(zone, entry.next_at)} (${tries}${error})`}</strong>;
    case 'failed':
      return <strong class="status-failed">{`${kind} to ${entry.to} failed after ${tries}, not tried again${error}`}</strong>;
    case 'expired':
      return `${kind} to ${entry.to} not sent: it was no longer needed`;
  }
}

function sentence(entry: StoryEntry, links: Links, id: string, currency: string, zone: string) {
  switch (entry.kind) {
    case 'booked':
      return booked(entry, links);
    case 'order_opened':
      return (
        <>
          Payment order <a href={links.to(`/dashboard/payments/${encodeURIComponent(entry.order_reference)}`)}>{entry.order_reference}</a> opened for{' '}
          {orderAmount(entry.amount_minor, entry.currency)}
        </>
      );
    case 'payment_attempt': {
      // An attempt on another order of the stay (a checkout before the paid one) names its order.
      const on = entry.other_order ? ` on order ${entry.other_order}` : '';
      const outcome = `Payment attempt ${entry.attempt}${on} ${ATTEMPT_OUTCOMES[entry.outcome] ?? inWords(entry.outcome).toLowerCase()} (${inWords(entry.provider)})`;
      return entry.outcome === 'failed' ? <strong class="status-failed">{outcome}</strong> : outcome;
    }
    case 'provider_event':
      return `${inWords(entry.provider)} reported: ${entry.type.replace(/[._]/g, ' ')}`;
    case 'money':
      return entry.transaction_kind === 'refund'
        ? `Refund of ${orderAmount(entry.amount_minor, entry.currency)}`
        : entry.transaction_kind === 'payment'
          ? `Payment of ${orderAmount(entry.amount_minor, entry.currency)} received`
          : `${inWords(entry.transaction_kind)} of ${orderAmount(entry.amount_minor, entry.currency)}`;
    case 'pms_notification':
      return notification(entry, links, id, zone);
    case 'email':
      return email(entry, zone);
    case 'staff':
      if (entry.entry.action === 'booking.assign_room') {
        const room = entry.room ? roomName(entry.room) : `Room ${String(entry.entry.changes.room_number ?? '')}`;
        return `${room} assigned by ${entry.entry.operator}`;
      }
      return `${auditSentence(entry.entry, { currency, timeZone: zone, ...(entry.room ? { roomLabel: `${entry.room.number} (${entry.room.category})` } : {}) })}, by ${entry.entry.operator}`;
    case 'cancelled':
      return `Cancelled by ${entry.by === 'guest' ? 'the guest from their confirmation page' : 'your PMS'}${entry.reason ? ` ("${entry.reason}")` : ''}`;
    case 'checked_in':
      return 'Checked in';
    case 'checked_out':
      return 'Checked out';
  }
}

export function BookingHistory({ entries, links, currency, moreStaffActions, zone }: { entries: readonly StoryEntry[]; links: Links; currency: string; moreStaffActions: boolean; zone: string }) {
  if (entries.length === 0) return <Empty>Nothing has happened to this booking yet.</Empty>;
  return (
    <>
      <ol class="story">
        {entries.map((entry, i) => (
          <li>
            <time datetime={entry.at}>{formatTime(zone, entry.at)}</time>
            <span class="what">{sentence(entry, links, `story-${i}`, currency, zone)}</span>
          </li>
        ))}
      </ol>
      {moreStaffActions ? <p class="muted">Older staff actions are on the Audit page.</p> : null}
    </>
  );
}
