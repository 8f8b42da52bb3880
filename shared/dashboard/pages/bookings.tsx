/**
 * Bookings (docs/behaviour.md "Hotel dashboard"): every origin with filters and pages, the paid
 * bookings awaiting a room first, a detail page per booking with its history, a reception booking
 * ("New booking") and a room for a paid booking recorded for manual assignment ("Assign room").
 * The list is the query of `ops bookings list`; each action is one use case that does the work of
 * `ops bookings create|assign` and records its audit entry (shared/domain/operator-actions/bookings.ts);
 * the client is the operator's own, so another client's booking is simply not found (404).
 */
import { type BookingListFilters, type BookingView, listClientBookings } from '../../domain/bookings/list-bookings';
import { requireClient } from '../../domain/clients';
import { roomLabels } from '../../domain/rooms/room-list';
import { AppError } from '../../errors';
import { BOOKING_ORIGINS } from '../../schemas/bookings';
import { BOOKING_STATUSES } from '../../schemas/booking-statuses';
import { type BookingMoney, bookingsMoney } from '../../domain/bookings/booking-money';
import { formatDate, formatPrice, inWords } from '../format';
import { Empty, ErrorSummary, Field, type Links, Page, Pager, Select, Table } from '../layout';
import type { PageAction } from '../page-function';

import { AssignRoomButton, BOOKINGS_PER_PAGE, FieldErrors, LIST, bookingPath, byStay, splitErrors } from './bookings-common';

// ---- the list

const FILTERS = ['from', 'to', 'status', 'origin'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number] | 'limit', string>>;

function filtersOf(query: Record<string, string>): Filters {
  const filters: Filters = {};
  for (const name of [...FILTERS, 'limit'] as const) {
    const value = query[name]?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

const ANY = { value: '', label: 'Any' };

/** The list's refusals of a filter, in plain words by field; what names no field (a page size, a stale page link) as the form's. */
function filterErrors(errors: FieldErrors, general?: string): FieldErrors {
  const words: FieldErrors = {};
  if (errors.from) words.from = 'Enter a real date for From, like 2027-03-01';
  if (errors.to) words.to = /before/.test(errors.to) ? 'To must be the same day as From or later' : 'Enter a real date for To, like 2027-03-31';
  if (errors.status) words.status = 'Choose a status from the list';
  if (errors.origin) words.origin = 'Choose an origin from the list';
  if (general) words.form = /cursor/.test(general) ? 'That page of the list is out of date: start again from the first page' : 'Show from 1 to 100 bookings a page';
  return words;
}

/** The filters (a GET form), its errors in the GOV.UK pattern: a summary linking to each field, the message by the field, the values kept. */
function FilterForm({ links, filters, errors, general }: { links: Links; filters: Filters; errors: FieldErrors; general?: string }) {
  const words = filterErrors(errors, general);
  return (
    <>
      <ErrorSummary errors={words} />
      <form method="get" action={links.to(LIST)} class="filters" aria-label="Filter bookings" novalidate>
        <Field label="From" name="from" type="date" value={filters.from} error={words.from} />
        <Field label="To" name="to" type="date" value={filters.to} error={words.to} />
        <Select label="Status" name="status" value={filters.status ?? ''} error={words.status} options={[ANY, ...BOOKING_STATUSES.map((s) => ({ value: s, label: inWords(s) }))]} />
        <Select label="Origin" name="origin" value={filters.origin ?? ''} error={words.origin} options={[ANY, ...BOOKING_ORIGINS.map((o) => ({ value: o, label: inWords(o) }))]} />
        {filters.limit ? <input type="hidden" name="limit" value={filters.limit} /> : null}
        <button type="submit">Filter</button>
      </form>
    </>
  );
}

/**
 * What the rows say beyond the bookings themselves: totals in the client's currency, and each room
 * by number and category (the category's name, else the room type). One GetItem and two Queries
 * of the client's rooms and categories, whatever the bookings' history.
 */
interface RowWords {
  currency: string;
  /** Room id to "101 (Deluxe Double)", as a booking's page names its room. */
  rooms: Map<string, string>;
  /** Each listed booking's money in words (bookingsMoney: their orders read in one batch). */
  money: Map<BookingView, BookingMoney>;
}

async function rowWordsOf(clientId: string): Promise<RowWords> {
  const [client, rooms] = await Promise.all([requireClient(clientId), roomLabels(clientId)]);
  return { currency: client.currency, rooms, money: new Map() };
}

function roomCell(b: BookingView, words: RowWords) {
  const room = b.room_id ? (words.rooms.get(b.room_id) ?? b.room_number) : null;
  if (room) return room;
  return b.awaiting_room ? <strong>Awaiting a room</strong> : '—';
}

/** Whose booking it is to the hotel: our reference, else the PMS's own booking number. */
const referenceOf = (b: BookingView) => b.booking_reference ?? (b.external_booking_id ? `${b.external_source ?? ''} ${b.external_booking_id}`.trim() : '—');

/** "Assign room": a GET form, so it is a button that opens the assignment form (no script). */

function AwaitingTable({ links, bookings, words }: { links: Links; bookings: BookingView[]; words: RowWords }) {
  if (bookings.length === 0) return <Empty>No paid booking is waiting for a room.</Empty>;
  return (
    <Table head={['Guest', 'Check-in', 'Check-out', 'Guests', 'Paid', 'Room']}>
      {bookings.map((b) => (
        <tr>
          <td id={`awaiting-${b.booking_id}`}>
            <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
          </td>
          <td class="nowrap">{formatDate(b.check_in_date)}</td>
          <td class="nowrap">{formatDate(b.check_out_date)}</td>
          <td>{b.guests}</td>
          <td class="amount">{formatPrice(words.money.get(b)?.owed ?? b.total_amount, words.currency)}</td>
          <td>
            <AssignRoomButton links={links} booking={b} describedBy={`awaiting-${b.booking_id}`} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

function BookingsTable({ links, bookings, words }: { links: Links; bookings: BookingView[]; words: RowWords }) {
  if (bookings.length === 0) return <Empty>No bookings match.</Empty>;
  return (
    <Table head={['Guest', 'Check-in', 'Check-out', 'Room', 'Status', 'Origin', 'Payment', 'Total', 'Reference']}>
      {bookings.map((b) => (
        <tr>
          <td>
            <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
          </td>
          <td class="nowrap">{formatDate(b.check_in_date)}</td>
          <td class="nowrap">{formatDate(b.check_out_date)}</td>
          <td>{roomCell(b, words)}</td>
          <td>{inWords(b.status)}</td>
          <td>{inWords(b.origin)}</td>
          <td>
            {words.money.get(b)?.words ?? '—'}
            {b.below_rate ? <strong class="status-failed"> · paid below rate</strong> : null}
          </td>
          <td class="amount">{formatPrice(words.money.get(b)?.owed ?? b.total_amount, words.currency)}</td>
          <td class="nowrap">{referenceOf(b)}</td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * The paid bookings still waiting for a room. No index names them: the client's bookings of
 * origin `payment` are read whole (the same Query as the list, pattern 23) and those with no room
 * kept, in stay order.
 */
async function awaitingRoom(clientId: string): Promise<BookingView[]> {
  const { bookings } = await listClientBookings(clientId, { origin: 'payment' });
  return bookings.filter((b) => b.awaiting_room).sort(byStay);
}

export const bookingsPage: PageAction = async (request) => {
  const { operator, links, query } = request;
  const filters = filtersOf(query);
  const { limit, ...listFilters } = filters;
  const page = { limit: limit === undefined ? BOOKINGS_PER_PAGE : /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN, cursor: query.cursor || undefined };
  const [awaiting, listed, words] = await Promise.all([
    awaitingRoom(operator.client_id),
    listClientBookings(operator.client_id, listFilters as BookingListFilters, page).then(
      (found) => ({ found }),
      (error: unknown) => {
        if (error instanceof AppError && error.status === 400) return { error };
        throw error;
      },
    ),
    rowWordsOf(operator.client_id),
  ]);
  if ('found' in listed) words.money = await bookingsMoney(listed.found.bookings);
  const problems = 'error' in listed ? splitErrors(listed.error, { from: 'from', to: 'to', status: 'status', origin: 'origin' }) : { fields: {} };
  return {
    status: 'error' in listed ? 400 : 200,
    html: (
      <Page title="Bookings" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <div class="actions">
          <a class="button-link" href={links.to(`${LIST}/new`)}>
            New booking
          </a>
        </div>
        <h2>Awaiting a room</h2>
        <AwaitingTable links={links} bookings={awaiting} words={words} />
        <h2>All bookings</h2>
        <FilterForm links={links} filters={filters} errors={problems.fields} general={problems.general} />
        {'found' in listed ? (
          <>
            <BookingsTable links={links} bookings={listed.found.bookings} words={words} />
            <Pager links={links} path={LIST} query={filters} cursor={listed.found.next_cursor ?? undefined} />
          </>
        ) : (
          <Empty>Correct the filters to see the bookings.</Empty>
        )}
      </Page>
    ),
  };
};

