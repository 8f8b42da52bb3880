/**
 * Bookings (CONTRACT.md "Hotel dashboard"): every origin with filters and pages, the paid
 * bookings awaiting a room first, a detail page per booking with its history, a reception booking
 * ("New booking") and a room for a paid booking recorded for manual assignment ("Assign room").
 * Every action is the use case the ops CLI calls (`bookings list|create|assign`); the client is
 * the operator's own, so another client's booking is simply not found (404).
 */
import { type BookingListFilters, type BookingView, listClientBookings } from '../../domain/bookings/list-bookings';
import { AppError } from '../../errors';
import { BOOKING_ORIGINS } from '../../schemas/bookings';
import { BOOKING_STATUSES } from '../../schemas/property-sync';
import { Empty, Field, type Links, Page, Pager, Select, Table } from '../layout';
import type { PageAction } from '../page-function';

import { AssignRoomButton, BOOKINGS_PER_PAGE, ErrorBox, FieldErrors, LIST, amount, bookingPath, byStay, splitErrors } from './bookings-common';

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

function FilterForm({ links, filters, errors }: { links: Links; filters: Filters; errors: FieldErrors }) {
  return (
    <form method="get" action={links.to(LIST)} class="filters" aria-label="Filter bookings">
      <Field label="From" name="from" type="date" value={filters.from} error={errors.from} />
      <Field label="To" name="to" type="date" value={filters.to} error={errors.to} />
      <Select label="Status" name="status" value={filters.status ?? ''} error={errors.status} options={[ANY, ...BOOKING_STATUSES.map((s) => ({ value: s, label: s }))]} />
      <Select label="Origin" name="origin" value={filters.origin ?? ''} error={errors.origin} options={[ANY, ...BOOKING_ORIGINS.map((o) => ({ value: o, label: o }))]} />
      {filters.limit ? <input type="hidden" name="limit" value={filters.limit} /> : null}
      <button type="submit">Filter</button>
    </form>
  );
}

function roomCell(b: BookingView) {
  if (b.room_number) return b.room_number;
  return b.awaiting_room ? <strong>Awaiting a room</strong> : '—';
}

/** "Assign room": a GET form, so it is a button that opens the assignment form (no script). */

function AwaitingTable({ links, bookings }: { links: Links; bookings: BookingView[] }) {
  if (bookings.length === 0) return <Empty>No paid booking is waiting for a room.</Empty>;
  return (
    <Table head={['Guest', 'Check-in', 'Check-out', 'Guests', 'Paid', 'Room']}>
      {bookings.map((b) => (
        <tr>
          <td id={`awaiting-${b.booking_id}`}>
            <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
          </td>
          <td>{b.check_in_date}</td>
          <td>{b.check_out_date}</td>
          <td>{b.guests}</td>
          <td>{amount(b.total_amount)}</td>
          <td>
            <AssignRoomButton links={links} booking={b} describedBy={`awaiting-${b.booking_id}`} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

function BookingsTable({ links, bookings }: { links: Links; bookings: BookingView[] }) {
  if (bookings.length === 0) return <Empty>No bookings match.</Empty>;
  return (
    <Table head={['Guest', 'Check-in', 'Check-out', 'Room', 'Status', 'Origin', 'Payment', 'Reference']}>
      {bookings.map((b) => (
        <tr>
          <td>
            <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
          </td>
          <td>{b.check_in_date}</td>
          <td>{b.check_out_date}</td>
          <td>{roomCell(b)}</td>
          <td>{b.status}</td>
          <td>{b.origin}</td>
          <td>
            {b.payment_status}
            {b.below_rate ? <strong class="status-failed"> · paid below rate</strong> : null}
          </td>
          <td>{b.booking_reference ?? (b.external_booking_id ? `${b.external_source ?? ''} ${b.external_booking_id}`.trim() : '—')}</td>
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
  const [awaiting, listed] = await Promise.all([
    awaitingRoom(operator.client_id),
    listClientBookings(operator.client_id, listFilters as BookingListFilters, page).then(
      (found) => ({ found }),
      (error: unknown) => {
        if (error instanceof AppError && error.status === 400) return { error };
        throw error;
      },
    ),
  ]);
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
        <AwaitingTable links={links} bookings={awaiting} />
        <h2>All bookings</h2>
        <ErrorBox message={problems.general} />
        <FilterForm links={links} filters={filters} errors={problems.fields} />
        {'found' in listed ? (
          <>
            <BookingsTable links={links} bookings={[...listed.found.bookings].sort(byStay)} />
            <Pager links={links} path={LIST} query={filters} cursor={listed.found.next_cursor ?? undefined} />
          </>
        ) : (
          <Empty>Correct the filters to see the bookings.</Empty>
        )}
      </Page>
    ),
  };
};

