/**
 * The overview: today's arrivals, departures and guests in house, occupancy of the next 14
 * nights as a chart read at a glance (server-rendered SVG, with the figures as text beside it),
 * deliveries needing attention and orders paid today. "Today" is the UTC date, as everywhere in
 * the service (CONTRACT.md "Conventions").
 */
import type { BookingView } from '../../domain/bookings/list-bookings';
import { type OccupancyNight, overviewOf } from '../../domain/overview';
import { formatAmount } from '../format';
import { Empty, type Links, Page } from '../layout';
import type { PageAction } from '../page-function';

function StayList({ bookings, links, empty }: { bookings: BookingView[]; links: Links; empty: string }) {
  if (bookings.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ul>
      {bookings.map((b) => (
        <li>
          <a href={links.to(`/dashboard/bookings/${encodeURIComponent(b.booking_id)}`)}>{b.guest_name}</a>
          {b.room_number ? `, room ${b.room_number}` : ', no room yet'} · {b.check_in_date} → {b.check_out_date}
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
  const today = request.now.toISOString().slice(0, 10);
  const overview = await overviewOf(request.operator.client_id, today);
  const { links } = request;
  return {
    html: (
      <Page title="Overview" links={links} operator={request.operator} nav="overview" notice={request.notice}>
        <p class="muted">Today is {today} (UTC).</p>
        <div class="cards">
          <section class="card" aria-labelledby="arrivals">
            <h2 id="arrivals">Arrivals today ({overview.arrivals.length})</h2>
            <StayList bookings={overview.arrivals} links={links} empty="No arrivals today." />
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
          {overview.attention.length === 0 ? (
            <Empty>Every callback and webhook went out.</Empty>
          ) : (
            <ul>
              {overview.attention.map((d) => (
                <li>
                  <a href={links.to(`/dashboard/deliveries/${encodeURIComponent(d.delivery_id)}`)}>{d.event}</a> · <span class={`status-${d.status}`}>{d.status}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="paid-today">
          <h2 id="paid-today">Orders paid today ({overview.paid_today.length})</h2>
          {overview.paid_today.length === 0 ? (
            <Empty>No order paid today yet.</Empty>
          ) : (
            <ul>
              {overview.paid_today.map((o) => (
                <li>
                  <a href={links.to(`/dashboard/payments/${encodeURIComponent(o.order_reference)}`)}>{o.reference}</a> ·{' '}
                  {formatAmount(o.amount_minor, o.currency)}
                </li>
              ))}
            </ul>
          )}
        </section>
      </Page>
    ),
  };
};
