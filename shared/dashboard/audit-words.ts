/**
 * Operators' actions in words, for the Audit page and a booking's history: "Assigned room 102
 * (Double)", never `booking.assign_room` or an id. An action this file does not know is told by
 * its name and changes with underscores as spaces, ids left out.
 */
import type { AuditEntry } from '../domain/audit';
import { formatAmount, formatDate, formatPrice, formatTime, inWords } from './format';

type Value = string | number | boolean | null | undefined;

/** A service id (UUID): never shown to people. */
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** What a sentence may know besides the entry: the room it names, the client's currency. */
export interface AuditWordsContext {
  /** The room the entry names, as "102 (Double)". */
  roomLabel?: string;
  currency?: string;
  /** The hotel's time zone, for the times a sentence names. @default 'UTC' */
  timeZone?: string;
}

const str = (value: Value) => (value === null || value === undefined ? '' : String(value));

/** The two addresses an admin sets, by `kind`. */
const ENDPOINTS: Record<string, string> = {
  callback: 'the address for notifications to your PMS',
  webhook: 'the address for payment notifications to your website',
};

function changedWas(entry: AuditEntry, name: string): string {
  const before = entry.previous?.[name];
  return before === undefined ? '' : ` (it was ${before === null ? 'not set' : str(before)})`;
}

/** A signing secret set with an address that had one: replaced by a new one, or by one the operator gave. */
function secretWords(entry: AuditEntry): string {
  if (entry.changes.secret === 'given') return ', with a signing secret the operator gave';
  return entry.changes.secret === 'new' && entry.previous?.url ? ', with a new signing secret' : '';
}

/** The other changes, as "name: value", ids and empty values left out. */
function otherChanges(changes: Record<string, Value>): string {
  return Object.entries(changes)
    .filter(([, value]) => value !== null && value !== undefined && value !== '' && !UUID.test(String(value)))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)}`)
    .join(', ');
}

/** An action's name in words: `client.set_time_zone` is "Client: set time zone". */
function actionWords(action: string): string {
  const [subject, ...rest] = action.split('.');
  const words = rest.join(' ').replace(/_/g, ' ');
  return words ? `${inWords(subject)}: ${words}` : inWords(subject);
}

const guestsWord = (n: Value) => `${str(n)} ${n === 1 ? 'guest' : 'guests'}`;

/** A refund recorded with an action, in currency: "; refunded 567.00 USD", or how it failed. */
function refundWords(c: Record<string, Value>, currency: string | undefined): { amount: string; outcome: string } {
  const refundCurrency = str(c.refund_currency) || currency;
  const amount = typeof c.refund_amount_minor === 'number' && refundCurrency ? formatAmount(c.refund_amount_minor, refundCurrency) : '';
  const outcome = amount ? (c.refund_status === 'failed' ? `; the refund of ${amount} failed` : `; refunded ${amount}`) : c.refund_error ? '; the refund was not made' : '';
  return { amount, outcome };
}

/** Staff's changes to a booking and its payment, in words. */
function bookingSentence(entry: AuditEntry, context: AuditWordsContext): string | undefined {
  const c = entry.changes;
  const { amount, outcome } = refundWords(c, context.currency);
  switch (entry.action) {
    case 'booking.cancel':
      if (c.repeated) return 'Cancelled a booking already cancelled: nothing changed';
      return `Cancelled${c.cancellation_reason ? ` ("${str(c.cancellation_reason)}")` : ''}${outcome}`;
    case 'booking.modify': {
      const was = entry.previous;
      const stay = `${formatDate(str(c.check_in_date))} to ${formatDate(str(c.check_out_date))}, ${guestsWord(c.guests)}`;
      const before = was ? ` (was ${formatDate(str(was.check_in_date))} to ${formatDate(str(was.check_out_date))}, ${guestsWord(was.guests)})` : '';
      const moved = was && was.room_id !== c.room_id && context.roomLabel ? `room ${context.roomLabel}, ` : '';
      const total = typeof c.total_amount === 'number' && context.currency ? `; total ${formatPrice(c.total_amount, context.currency)}` : '';
      const wasTotal = was && typeof was.total_amount === 'number' && was.total_amount !== c.total_amount && context.currency ? ` (was ${formatPrice(was.total_amount, context.currency)})` : '';
      return `Changed to ${moved}${stay}${before}${total}${total ? wasTotal : ''}`;
    }
    case 'booking.no_show':
      return 'Marked a no-show';
    case 'order.refund':
      return `Refunded ${amount || 'the payment'}${c.reason ? ` ("${str(c.reason)}")` : ''}${c.refund_status === 'failed' ? ': the refund failed' : ''}`;
    default:
      return undefined;
  }
}

/** What the operator did, as a sentence without the operator ("Assigned room 102 (Double)"). */
export function auditSentence(entry: AuditEntry, context: AuditWordsContext = {}): string {
  const c = entry.changes;
  const room = context.roomLabel ?? str(c.room_number);
  const about = bookingSentence(entry, context);
  if (about) return about;
  switch (entry.action) {
    case 'booking.create':
      return `Made a reception booking for ${str(c.guest_name) || 'a guest'}${room ? `, room ${room}` : ''}${c.check_in_date ? `, ${formatDate(str(c.check_in_date))} to ${formatDate(str(c.check_out_date))}` : ''}`;
    case 'booking.assign_room':
      return `Assigned room ${room || 'a room'}`;
    case 'delivery.retry':
      return `Sent a notification to your PMS again${c.was ? ` (it had ${c.was === 'needs_review' ? 'been refused' : inWords(str(c.was)).toLowerCase()})` : ''}`;
    case 'delivery.retry_all':
      // `status`: the operator CLI's retry of one status (`ops deliveries retry --status`).
      if (c.status) return `Sent every ${c.status === 'needs_review' ? 'refused' : 'failed'} notification again: ${str(c.count)} queued`;
      return `Sent every failed or refused notification again: ${str(c.count)} queued (${str(c.failed)} failed, ${str(c.needs_review)} refused)`;
    case 'category.picture':
      return c.picture ? `Set the picture of ${str(c.category)} to ${str(c.picture)}` : `Showed the PMS's picture of ${str(c.category)} again`;
    case 'room.create': {
      const price = typeof c.price === 'number' && context.currency ? formatPrice(c.price, context.currency) : str(c.price);
      return `Added room ${str(c.room_number)}${c.room_type ? ` (${str(c.room_type)})` : ''}${price ? `, ${price} a night` : ''}${c.max_occupancy ? `, for up to ${str(c.max_occupancy)} guests` : ''}`;
    }
    case 'rates.set': {
      const price = typeof c.price === 'number' && context.currency ? formatPrice(c.price, context.currency) : str(c.price);
      const set = [
        price ? `${price} a night` : '',
        ...['min_stay_arrival', 'min_stay_through', 'max_stay', 'closed_to_arrival', 'closed_to_departure', 'stop_sell'].filter((f) => c[f] !== undefined).map((f) => `${actionWords(f).toLowerCase()} ${str(c[f])}`),
      ].filter(Boolean);
      return `Set rates of ${str(c.external_rate_plan_id)} from ${str(c.date_from)} to ${str(c.date_to)}${c.days ? ` (${str(c.days)})` : ''}: ${set.join(', ')}; ${str(c.days_changed)} nights changed`;
    }
    case 'key.create':
      return `Created a ${str(c.kind)} key${c.name ? ` "${str(c.name)}"` : ''}${c.scopes ? ` for ${str(c.scopes).split(' ').join(', ')}` : ''}${c.origins ? ` for ${str(c.origins).split(' ').join(', ')}` : ''}`;
    case 'key.revoke':
      return `Revoked a ${str(c.kind)} key`;
    case 'callback.set_url':
    case 'webhook.set_url':
      // `secret`: made (`new`: the first URL, or `ops callbacks set` without --secret) or given (`given`: with --secret).
      return `Set ${ENDPOINTS[str(c.kind)] ?? 'an address'} to ${str(c.url)}${changedWas(entry, 'url')}${secretWords(entry)}`;
    case 'callback.rotate_secret':
    case 'webhook.rotate_secret':
      // With an overlap (`previous_valid_until`): the previous secret kept signing until then.
      return c.previous_valid_until
        ? `Rotated the signing secret of ${ENDPOINTS[str(c.kind)] ?? 'an address'}; the previous one works until ${formatTime(context.timeZone ?? 'UTC', str(c.previous_valid_until))}`
        : `Replaced the signing secret of ${ENDPOINTS[str(c.kind)] ?? 'an address'}`;
    case 'provider.set':
      return `Chose where payments go: ${inWords(str(c.provider))}${c.account ? ` (${str(c.account)})` : ''}`;
    case 'guest_booking.pay_at_property':
      return c.pay_at_property ? 'Let guests book on the booking page and pay at the hotel' : 'Stopped guests booking on the booking page to pay at the hotel';
    case 'operator.totp_on':
      return 'Turned on sign-in codes from an authenticator app';
    default: {
      const changes = otherChanges(c);
      return `${actionWords(entry.action)}${changes ? ` (${changes})` : ''}`;
    }
  }
}
