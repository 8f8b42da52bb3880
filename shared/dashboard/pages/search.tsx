/**
 * Search (the header's search box on every page leads here): the operator's client's bookings
 * found by a guest's name or e-mail, a booking reference, confirmation code, room number, external
 * booking id or order reference (shared/domain/bookings/search.ts), newest stay first, each
 * linking to its booking's page. An empty or too long search comes back with the GOV.UK error
 * summary and its message next to the field (400).
 */
import { MAX_SEARCH_LENGTH, type SearchResult, searchBookings } from '../../domain/bookings/search';
import { AppError } from '../../errors';
import { formatDate, inWords } from '../format';
import { Empty, ErrorSummary, Field, type Links, Page, SEARCH_PATH, Table } from '../layout';
import type { PageAction } from '../page-function';
import { bookingPath } from './bookings-common';

const WHAT = 'a guest’s name or e-mail, a booking reference, confirmation code, room number, external booking id or order reference';

function SearchForm({ links, query, error }: { links: Links; query: string; error?: string }) {
  return (
    <form method="get" action={links.to(SEARCH_PATH)} role="search">
      <Field label="Search" name="q" value={query} error={error} hint={`Type ${WHAT}.`} />
      <button type="submit">Search</button>
    </form>
  );
}

function Results({ links, result }: { links: Links; result: SearchResult }) {
  const { matches, query, more } = result;
  if (matches.length === 0) {
    return <Empty>{`No booking matches “${query}”. Check the spelling, or search by ${WHAT}.`}</Empty>;
  }
  const count = matches.length === 1 ? '1 booking matches' : `${matches.length} bookings match`;
  return (
    <>
      <p role="status">
        {more
          ? `The ${matches.length} latest stays matching “${query}” are shown, and more bookings may match: type more of the name, or search by a reference.`
          : `${count} “${query}”, latest stay first.`}
      </p>
      <Table head={['Guest', 'Check-in', 'Check-out', 'Room', 'Status', 'Found by']}>
        {matches.map(({ booking: b, found_by }) => (
          <tr>
            <td>
              <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
            </td>
            <td>{formatDate(b.check_in_date)}</td>
            <td>{formatDate(b.check_out_date)}</td>
            <td>{b.room_number ?? (b.awaiting_room ? 'Awaiting a room' : '—')}</td>
            <td>{inWords(b.status)}</td>
            <td>{found_by}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

export const searchPage: PageAction = async (request) => {
  const { operator, links } = request;
  const query = request.query.q;
  let result: SearchResult | undefined;
  let error: string | undefined;
  // Opened without a search (no `q` at all): the form alone.
  if (query !== undefined) {
    try {
      result = await searchBookings(operator.client_id, query);
    } catch (thrown) {
      if (!(thrown instanceof AppError) || thrown.status !== 400) throw thrown;
      error = thrown.details?.[0]?.message ?? thrown.message;
    }
  }
  return {
    status: error ? 400 : 200,
    html: (
      <Page title="Search" links={links} operator={operator} nav="search" notice={request.notice} searchBox={false}>
        <ErrorSummary errors={{ q: error }} />
        <SearchForm links={links} query={Array.from(query ?? '').slice(0, MAX_SEARCH_LENGTH * 2).join('')} error={error} />
        {result ? <Results links={links} result={result} /> : null}
      </Page>
    ),
  };
};
