/**
 * Gives the bookings written by versions before the check-in index and the search entries both
 * (docs/data-model.md, pattern 46): `ops bookings reindex`, and the local stack at start for the
 * bookings that have neither. Clients from the client list a page at a time, each client's bookings
 * a page at a time; never a Scan. Safe to repeat and to run while the service writes bookings.
 */
import { mapConcurrent, type PageKey } from '../../store/batch';
import { clientIdsPage } from '../../store/api-key-store';
import { reindexClientBookings } from '../../store/booking-index-store';

const CLIENT_CONCURRENCY = 4;

export interface ReindexTotals {
  clients: number;
  bookings: number;
  reindexed: number;
}

/** One client's bookings (`clientId`), or every client's. */
export async function reindexBookings(options: { clientId?: string; unindexedOnly?: boolean } = {}): Promise<ReindexTotals> {
  const total: ReindexTotals = { clients: 0, bookings: 0, reindexed: 0 };
  const add = (done: { bookings: number; reindexed: number }) => {
    total.clients += 1;
    total.bookings += done.bookings;
    total.reindexed += done.reindexed;
  };
  if (options.clientId) {
    add(await reindexClientBookings(options.clientId, options));
    return total;
  }
  let seen = new Set<string>();
  let start: PageKey | undefined;
  do {
    const page = await clientIdsPage(100, start);
    // A client whose profile is at both its keys is on the client list twice, side by side.
    const ids = [...new Set(page.ids)].filter((id) => !seen.has(id));
    seen = new Set(page.ids);
    for (const done of await mapConcurrent(ids, CLIENT_CONCURRENCY, (id) => reindexClientBookings(id, options))) add(done);
    start = page.next;
  } while (start);
  return total;
}
