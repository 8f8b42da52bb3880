/**
 * How the dashboard writes amounts, dates and times for people: the one module every staff page
 * formats with. Times are the hotel's (its time zone): "28 Nov 2026, 14:05"; dates "Fri 4 Dec 2026".
 */
import { localDate, localTime } from '../domain/hotel-time';
import { majorAmount, minorUnits } from '../schemas/payments';

/** An amount in minor units as people write it: 24000 USD is "240.00 USD", 5000 JPY "5,000 JPY". */
export function formatAmount(amountMinor: number, currency: string): string {
  const digits = minorUnits(currency);
  const major = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(majorAmount(amountMinor, currency));
  return `${major} ${currency}`;
}

/** A count as people write it: 1500 is "1,500". */
export function formatCount(count: number): string {
  return new Intl.NumberFormat('en-US').format(count);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `YYYY-MM-DD` as "4 Dec 2026" (no weekday). */
function dayMonthYear(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/** A calendar date (`YYYY-MM-DD`) as people read it: "Fri 4 Dec 2026"; `none` (a dash) for none. */
export function formatDate(date: string | null | undefined, none = '—'): string {
  if (!date) return none;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  return `${WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]} ${dayMonthYear(date)}`;
}

/** An instant (ISO timestamp) in the hotel's time zone: "28 Nov 2026, 14:05"; `none` (a dash) for none. */
export function formatTime(timeZone: string, at: string | Date | null | undefined, none = '—'): string {
  if (!at) return none;
  const instant = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(instant.getTime())) return none;
  return `${dayMonthYear(localDate(timeZone, instant))}, ${localTime(timeZone, instant)}`;
}

/**
 * Statuses, origins and methods in words, for every page people read (the API keeps its codes).
 * A code this table does not know is shown with its underscores as spaces, never raw.
 */
const WORDS: Record<string, string> = {
  // bookings
  pending: 'Pending',
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  checked_out: 'Checked out',
  cancelled: 'Cancelled',
  no_show: 'No-show',
  // booking origins
  sync: 'From your PMS',
  reception: 'Reception',
  payment: 'Paid online',
  // payment statuses and methods
  unpaid: 'Not paid',
  partially_paid: 'Partly paid',
  paid: 'Paid',
  refunded: 'Refunded',
  pay_at_property: 'Pay at the hotel',
  sandbox: 'Sandbox (test payments)',
  stripe: 'Stripe',
  // orders and deliveries
  processing: 'In progress',
  failed: 'Failed',
  expired: 'Expired',
  retrying: 'Retrying',
  delivered: 'Delivered',
  needs_review: 'Needs review',
};

export function inWords(code: string | null | undefined, none = '—'): string {
  if (!code) return none;
  const word = WORDS[code];
  if (word) return word;
  const spaced = code.replace(/_/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** An order's amount (minor units) with its currency, or `none` for no amount. */
export function orderAmount(amountMinor: number | null | undefined, currency: string, none = '—'): string {
  return amountMinor === null || amountMinor === undefined ? none : formatAmount(amountMinor, currency);
}

/** A price or booking total (major units, as the PMS syncs them) with its currency: "1,240.50 EUR". */
export function formatPrice(amountMajor: number | null | undefined, currency: string, none = '—'): string {
  if (amountMajor === null || amountMajor === undefined) return none;
  const digits = minorUnits(currency);
  return `${new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amountMajor)} ${currency}`;
}

/** A calendar date in a table cell: "Fri 4 Dec" (the tables above: Intl's en-GB writes September "Sept"). */
export function formatDayShort(date: string): string {
  return formatDate(date).replace(/ \d{4}$/, '');
}

/** An amount in minor units as a plain decimal, for files and machines: 124050 USD is "1240.50", 5000 JPY "5000". */
export function plainDecimal(amountMinor: number, currency: string): string {
  const digits = minorUnits(currency);
  const sign = amountMinor < 0 ? '-' : '';
  const whole = String(Math.abs(amountMinor)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole.slice(0, -digits)}.${whole.slice(-digits)}`;
}

/** A percentage to one decimal, as people read it: "66.7%"; `none` for none. */
export function formatPercent(value: number | null, none = '—'): string {
  return value === null ? none : `${value.toFixed(1)}%`;
}
