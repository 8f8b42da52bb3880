/**
 * Finding a booking (the dashboard's search box): by the guest's name (any word, by its start,
 * case and accents aside) or e-mail (by its start), booking reference, confirmation code, room
 * number, external booking id or order reference (whole, case aside; the partner's own order
 * reference as typed), within one client. Every lookup is bounded (docs/data-model.md, pattern 45):
 * a few Queries of the search entries of one term (shared/store/search-store.ts), the room-number
 * guard, the order-reference guard, then one BatchGetItem of at most ~200 bookings, each checked
 * against what the search asked, so an entry left from a renamed guest or a reassigned room never
 * shows a wrong booking. At most SEARCH_RESULTS bookings, newest stay first, and whether more match.
 */
import { errors } from '../../errors';
import { findOrderByExternalReference } from '../../store/payment-store';
import { listRooms } from '../../store/room-store';
import { type BookingRecord, getBookings } from '../../store/booking-store';
import { bookingKeys, findSearchEntries, folded, nameWords, roomIdsByNumber, searchTerm } from '../../store/search-store';
import { type BookingView, bookingView } from './list-bookings';

export const MAX_SEARCH_LENGTH = 100;
/** The bookings a search shows at most. */
export const SEARCH_RESULTS = 20;
/** Entries read of a term a name word or e-mail starts: more, as the terms' order is not the stays'. */
const PREFIX_ENTRIES = 40;
/** The words of a search looked up (the longest); a longer search's other words are checked on the bookings. */
const LOOKED_UP_WORDS = 3;

/** Which of the booking's facts the search matched, in words for the page. */
export type FoundBy =
  | 'Guest name'
  | 'E-mail'
  | 'Booking reference'
  | 'Confirmation code'
  | 'External booking id'
  | 'Order reference'
  | 'Room number'
  | 'Booking id';

export interface SearchMatch {
  booking: BookingView;
  found_by: FoundBy;
}

export interface SearchResult {
  /** The search as it was run (spaces tidied). */
  query: string;
  matches: SearchMatch[];
  /** More bookings may match than are shown: the operator can narrow the search. */
  more: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const none = { bookingIds: [] as string[], more: false };

/** The search as typed, tidied; 400 VALIDATION_ERROR (path `q`) when empty or too long. */
function checkedQuery(input: string | undefined): string {
  const text = (input ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') throw errors.validation([{ path: 'q', message: "Enter a guest's name or e-mail, a booking reference, confirmation code or room number" }], 'q: empty');
  if (Array.from(text).length > MAX_SEARCH_LENGTH) throw errors.validation([{ path: 'q', message: `Enter ${MAX_SEARCH_LENGTH} characters or fewer` }], 'q: too long');
  return text;
}

interface Wanted {
  id: string;
  term: string;
  words: string[];
  /** The search folded, as an e-mail is compared (no spaces in one). */
  email?: string;
  rooms: Set<string>;
  /** Bookings the partner's order reference names (the order says so). */
  ordered: Set<string>;
}

/** What of the booking matches the search, checked on the booking as it is now; undefined: nothing. */
function foundBy(booking: BookingRecord, wanted: Wanted): FoundBy | undefined {
  const same = (value: string | undefined) => value !== undefined && value.trim() !== '' && searchTerm(value) === wanted.term;
  if (booking.id === wanted.id) return 'Booking id';
  if (same(booking.booking_reference)) return 'Booking reference';
  if (same(booking.confirmation_code)) return 'Confirmation code';
  if (same(booking.external_booking_id)) return 'External booking id';
  if (same(booking.payment_order_reference) || wanted.ordered.has(booking.id)) return 'Order reference';
  if (booking.room_id && wanted.rooms.has(booking.room_id)) return 'Room number';
  const email = wanted.email !== undefined && booking.guest_email !== undefined && folded(booking.guest_email.trim()).startsWith(wanted.email);
  // "zoe" names Zoë more than it starts her e-mail; "zoe.angstrom@" is an e-mail.
  if (email && wanted.email!.includes('@')) return 'E-mail';
  const words = nameWords(booking.guest_name ?? '');
  if (wanted.words.length && wanted.words.every((w) => words.some((word) => word.startsWith(w)))) return 'Guest name';
  return email ? 'E-mail' : undefined;
}

const newestStayFirst = (a: BookingRecord, b: BookingRecord) => b.check_in_date.localeCompare(a.check_in_date) || a.id.localeCompare(b.id);

/** The client's bookings the search finds (see the file's comment). */
export async function searchBookings(clientId: string, input: string | undefined): Promise<SearchResult> {
  const query = checkedQuery(input);
  const term = searchTerm(query);
  const words = nameWords(query);
  // Each of the longest words by its start (a booking matching them all is among the entries of
  // each, so one word read whole finds them all), and the longest whole, newest stays first (a
  // common surname typed whole shows its latest stays).
  const lookedUp = [...words].sort((a, b) => b.length - a.length).slice(0, LOOKED_UP_WORDS);
  const email = query.includes(' ') ? undefined : term;

  const [byKey, byEmail, byWord, byWordStarts, byRoom, order] = await Promise.all([
    findSearchEntries(clientId, 'K', term, { match: 'exact', limit: SEARCH_RESULTS }),
    email ? findSearchEntries(clientId, 'E', email, { match: 'prefix', limit: SEARCH_RESULTS }) : none,
    lookedUp.length ? findSearchEntries(clientId, 'N', lookedUp[0]!, { match: 'exact', limit: SEARCH_RESULTS }) : none,
    Promise.all(lookedUp.map((w) => findSearchEntries(clientId, 'N', w, { match: 'prefix', limit: PREFIX_ENTRIES }))),
    roomIdsByNumber(clientId, [query, query.toUpperCase()]).then(async (roomIds) => ({
      roomIds,
      found: await Promise.all(roomIds.map((roomId) => findSearchEntries(clientId, 'R', roomId, { match: 'exact', limit: SEARCH_RESULTS }))),
    })),
    findOrderByExternalReference(clientId, query),
  ]);
  const ordered = new Set(order?.client_id === clientId && order.booking_sync?.booking_id ? [order.booking_sync.booking_id] : []);
  const lookups = [byKey, byEmail, byWord, ...byWordStarts, ...byRoom.found];
  const candidates = new Set([...lookups.flatMap((found) => found.bookingIds), ...ordered]);
  // Bookings left unread: a key, e-mail or room with more entries than read; a name whose every
  // word looked up has more entries than read.
  const unread = [byKey, byEmail, ...byRoom.found].some((lookup) => lookup.more) || (byWordStarts.length > 0 && byWordStarts.every((lookup) => lookup.more));
  const id = query.toLowerCase();
  if (UUID.test(id)) candidates.add(id);

  const [bookings, rooms] = await Promise.all([getBookings(clientId, [...candidates]), listRooms(clientId)]);
  const wanted: Wanted = { id, term, words, email, rooms: new Set(byRoom.roomIds), ordered };
  const found = [...bookings.values()]
    .map((booking) => ({ booking, by: foundBy(booking, wanted) }))
    .filter((match): match is { booking: BookingRecord; by: FoundBy } => match.by !== undefined)
    .sort((a, b) => newestStayFirst(a.booking, b.booking));
  const roomNumbers = new Map(rooms.map((room) => [room.id, room.room_number]));
  return {
    query,
    matches: found.slice(0, SEARCH_RESULTS).map(({ booking, by }) => ({ booking: bookingView(booking, (roomId) => roomNumbers.get(roomId)), found_by: by })),
    more: found.length > SEARCH_RESULTS || unread,
  };
}
