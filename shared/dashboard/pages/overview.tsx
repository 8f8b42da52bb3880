/**
 * The overview, by the hotel's own calendar (its time zone, a client setting, named on the
 * page): today's arrivals, departures and guests in house, occupancy of the next 14 nights as a
 * chart read at a glance (server-rendered SVG, with the figures as text beside it), deliveries
 * needing attention and orders paid today. An arrival whose booking has not reached the PMS is
 * flagged "Not yet in your PMS", with "Retry" when sending it has stopped.
 */
import { type BookingMoney, bookingsMoney } from '../../domain/bookings/booking-money';
import type { BookingView } from '../../domain/bookings/list-bookings';
import type { DeliveryView, PmsReceipt } from '../../domain/callbacks/delivery-views';
import { timeZoneOf } from '../../domain/client-settings';
import { findClient } from '../../domain/clients';
import { hotelClock, localTime } from '../../domain/hotel-time';
import { type ArrivalView, type OccupancyNight, overviewOf } from '../../domain/overview';
import { formatAmount, formatPrice, inWords } from '../format';
import { Empty, type Links, Page } from '../layout';
import type { PageAction } from '../page-function';
import { eventInWords, stayDates, subjectOf } from './delivery-words';

const deliveryPath = (deliveryId: string) => `/dashboard/deliveries/${encodeURIComponent(deliveryId)}`;

/** "Wednesday 25 November 2026": a local date (YYYY-MM-DD) in full. */
export function dateInFull(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).replace(',', '');
}

/** The guest (linked to the booking), the room and the stay. */
function Stay({ booking, links, status }: { booking: BookingView; links: Links; status?: boolean }) {
  return (
    <>
      <a href={links.to(`/dashboard/bookings/${encodeURIComponent(booking.booking_id)}`)}>{booking.guest_name}</a>
      {' · '}
      {booking.room_number ? `Room ${booking.room_number}` : 'no room yet'} · {stayDates(booking.check_in_date, booking.check_out_date)}
      {status ? ` · ${inWords(booking.status)}` : null}
    </>
  );
}

function StayList({ bookings, links, empty }: { bookings: BookingView[]; links: Links; empty: string }) {
  if (bookings.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ul>
      {bookings.map((b) => (
        <li>
          <Stay booking={b} links={links} status />
        </li>
      ))}
    </ul>
  );
}

/** "Retry" for a delivery, answered on the overview; its accessible name says whose. */
function RetryButton({ links, deliveryId, whose }: { links: Links; deliveryId: string; whose: string }) {
  return (
    <form method="post" action={links.to(`${deliveryPath(deliveryId)}/retry`)} class="inline">
      <input type="hidden" name="back" value="overview" />
      <button type="submit" aria-label={`Retry sending ${whose}`}>
        Retry
      </button>
    </form>
  );
}

const WHY_NOT: Record<string, string> = {
  pending: 'sending now',
  retrying: 'sending failed; it is tried again automatically',
  failed: 'sending failed and is no longer tried',
  needs_review: 'your PMS refused it',
};

/** Whether the arrival's booking reached the PMS, when it has not. */
function PmsFlag({ receipt, links, guest }: { receipt: PmsReceipt; links: Links; guest: string }) {
  if (receipt.state !== 'not_received') return null;
  return (
    <p class="pms-flag">
      <strong class="status-failed">{receipt.earlier_delivered ? 'Room not yet in your PMS' : 'Not yet in your PMS'}</strong>:{' '}
      <a href={links.to(deliveryPath(receipt.delivery_id))}>{WHY_NOT[receipt.status] ?? inWords(receipt.status)}</a>{' '}
      {receipt.retryable ? <RetryButton links={links} deliveryId={receipt.delivery_id} whose={`${guest}'s booking to your PMS`} /> : null}
    </p>
  );
}

function Arrivals({ arrivals, links, money, currency }: { arrivals: ArrivalView[]; links: Links; money: Map<BookingView, BookingMoney>; currency: string }) {
  if (arrivals.length === 0) return <Empty>No arrivals today.</Empty>;
  return (
    <ul>
      {arrivals.map((b) => (
        <li>
          <Stay booking={b} links={links} status />
          {` · ${b.guests} ${b.guests === 1 ? 'guest' : 'guests'} · Balance due ${formatPrice(money.get(b)?.balance_due ?? 0, currency)}`}
          <PmsFlag receipt={b.pms} links={links} guest={b.guest_name} />
        </li>
      ))}
    </ul>
  );
}

function Attention({ deliveries, links }: { deliveries: DeliveryView[]; links: Links }) {
  if (deliveries.length === 0) return <Empty>Every notification to your PMS and website went out.</Empty>;
  return (
    <ul>
      {deliveries.map((d) => (
        <li>
          <a href={links.to(deliveryPath(d.delivery_id))}>{eventInWords(d.event)}</a> · {subjectOf(d.about)} ·{' '}
          <span class={`status-${d.status}`}>{inWords(d.status)}</span>{' '}
          <RetryButton links={links} deliveryId={d.delivery_id} whose={`${eventInWords(d.event).toLowerCase()}, ${subjectOf(d.about)}`} />
        </li>
      ))}
    </ul>
  );
}

const BAR_WIDTH = 40;
const CHART_HEIGHT = 120;

/** Bars of the share of rooms taken each night; the same figures are in the table below it. */
function OccupancyChart({ nights }: { nights: OccupancyNight[] }) {
  const width = nights.length * BAR_WIDTH;
  const share = (n: OccupancyNight) => (n.rooms === 0 ? 0 : n.occupied / n.rooms);
  const summary = nights.map((n) => `${n.date.slice(5)}: ${n.occupied} of ${n.rooms}`).join(', ');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${CHART_HEIGHT + 34}`} role="img" aria-label={`Rooms taken per night: ${summary}`}>
        <line x1="0" y1={CHART_HEIGHT} x2={width} y2={CHART_HEIGHT} stroke="#8c959f" />
        {nights.map((n, i) => {
          const height = Math.round(share(n) * CHART_HEIGHT);
          return (
            <g>
              <rect x={i * BAR_WIDTH + 6} y={CHART_HEIGHT - height} width={BAR_WIDTH - 12} height={height} fill="#0b5cad" />
              <text x={i * BAR_WIDTH + BAR_WIDTH / 2} y={CHART_HEIGHT - height - 4} text-anchor="middle" font-size="11" fill="#1b1f24">
                {`${Math.round(share(n) * 100)}%`}
              </text>
              <text x={i * BAR_WIDTH + BAR_WIDTH / 2} y={CHART_HEIGHT + 16} text-anchor="middle" font-size="10" fill="#4a5360">
                {n.date.slice(8)}
              </text>
              <text x={i * BAR_WIDTH + BAR_WIDTH / 2} y={CHART_HEIGHT + 29} text-anchor="middle" font-size="9" fill="#4a5360">
                {new Date(`${n.date}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', timeZone: 'UTC' })}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>Share of active rooms taken each night, from tonight.</figcaption>
    </figure>
  );
}

export const overviewPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const client = await findClient(clientId);
  const zone = client ? timeZoneOf(client) : 'UTC';
  const { today } = hotelClock(zone, request.now);
  const overview = await overviewOf(clientId, today, zone);
  const arrivalsMoney = await bookingsMoney(overview.arrivals);
  const currency = client?.currency ?? '';
  const { links } = request;
  return {
    html: (
      <Page title="Overview" links={links} operator={request.operator} nav="overview" notice={request.notice}>
        <p class="muted">
          Today is {dateInFull(today)} ({zone}).
        </p>
        <div class="cards">
          <section class="card" aria-labelledby="arrivals">
            <h2 id="arrivals">Arrivals today ({overview.arrivals.length})</h2>
            <Arrivals arrivals={overview.arrivals} links={links} money={arrivalsMoney} currency={currency} />
          </section>
          <section class="card" aria-labelledby="departures">
            <h2 id="departures">Departures today ({overview.departures.length})</h2>
            <StayList bookings={overview.departures} links={links} empty="No departures today." />
          </section>
          <section class="card" aria-labelledby="in-house">
            <h2 id="in-house">In house ({overview.in_house.length})</h2>
            <StayList bookings={overview.in_house} links={links} empty="No guests checked in." />
          </section>
        </div>

        <section aria-labelledby="occupancy">
          <h2 id="occupancy">Occupancy, next {overview.occupancy.length} nights</h2>
          <OccupancyChart nights={overview.occupancy} />
          <div class="table-wrap" tabIndex={0}>
            <table>
              <caption class="muted">Rooms taken per night</caption>
              <thead>
                <tr>
                  <th scope="col">Night</th>
                  {overview.occupancy.map((n) => (
                    <th scope="col">{n.date.slice(5)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Taken</th>
                  {overview.occupancy.map((n) => (
                    <td>
                      {n.occupied}/{n.rooms}
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          </div>
        </section>

        <section aria-labelledby="attention">
          <h2 id="attention">Deliveries needing attention</h2>
          <Attention deliveries={overview.attention} links={links} />
        </section>

        <section aria-labelledby="paid-today">
          <h2 id="paid-today">Orders paid today ({overview.paid_today.length})</h2>
          {overview.paid_today.length === 0 ? (
            <Empty>No order paid today yet.</Empty>
          ) : (
            <ul>
              {overview.paid_today.map((o) => (
                <li>
                  <a href={links.to(`/dashboard/payments/${encodeURIComponent(o.order_reference)}`)}>{o.customer_name ?? o.customer_email}</a>
                  {o.stay ? ` · ${stayDates(o.stay.check_in_date, o.stay.check_out_date)}` : ''} · {formatAmount(o.amount_minor, o.currency)}
                  {o.status === 'partially_refunded' ? ' · partly refunded' : ''}
                  {o.paid_at ? ` · paid at ${localTime(zone, new Date(o.paid_at))}` : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      </Page>
    ),
  };
};
