/**
 * Reports (docs/behaviour.md "Reports"), for every staff role: a range of nights in the hotel's
 * dates (this month by default), then occupancy and revenue per night with the total, the figures
 * by origin and payments by day, a chart drawn on the server, and each table as CSV. The figures
 * come from one use case (shared/domain/reports/); this page only presents them.
 */
import { hotelClock } from '../../domain/hotel-time';
import type { NightFigures, ReportFigures, ReportOrigin } from '../../domain/reports/figures';
import { type ReportRange, reportRange } from '../../domain/reports/report-range';
import { reportOf } from '../../domain/reports/reports';
import { AppError, errors } from '../../errors';
import { formatCount, formatDate, formatPercent, orderAmount } from '../format';
import { hotelZone } from '../hotel-zone';
import { Empty, ErrorSummary, Field, type Links, Page, Table } from '../layout';
import type { PageAction, PageRequest } from '../page-function';
import { ReportChart } from '../report-chart';
import { REPORT_TABLES, type ReportTable, reportCsv as csvOf, reportFileName } from '../report-files';
import { splitErrors } from './bookings-common';

const REPORTS = '/dashboard/reports';

const ORIGIN_WORDS: Record<ReportOrigin, string> = { pms: 'PMS', booking_page: 'Booking page', reception: 'Reception', partner: 'Partner orders' };

async function hotelToday(request: PageRequest): Promise<{ today: string }> {
  return { today: hotelClock(await hotelZone(request.operator.client_id), request.now).today };
}

function RangeForm({ links, values, fieldErrors }: { links: Links; values: { from?: string; to?: string }; fieldErrors: Record<string, string | undefined> }) {
  return (
    <form method="get" action={links.to(REPORTS)} class="filters" novalidate>
      <ErrorSummary errors={fieldErrors} labels={{ from: 'From', to: 'To' }} />
      <Field label="From" name="from" type="date" value={values.from} error={fieldErrors.from} hint="The first night" />
      <Field label="To" name="to" type="date" value={values.to} error={fieldErrors.to} hint="The last night, at most 366 nights on" />
      <button type="submit">Show report</button>
    </form>
  );
}

function Download({ links, figures, table }: { links: Links; figures: ReportFigures; table: ReportTable }) {
  return (
    <p>
      <a href={links.to(`${REPORTS}/${table}.csv`, { from: figures.from, to: figures.to })} download={reportFileName(figures, table)}>
        Download CSV
      </a>
    </p>
  );
}

function NightRow({ night, currency, heading }: { night: Omit<NightFigures, 'date'>; currency: string; heading: string }) {
  return (
    <tr>
      <th scope="row">{heading}</th>
      <td class="num">{formatCount(night.rooms_in_service)}</td>
      <td class="num">{formatCount(night.rooms_sold)}</td>
      <td class="num">{formatPercent(night.occupancy_percent)}</td>
      <td class="num">{orderAmount(night.revenue_minor, currency)}</td>
      <td class="num">{orderAmount(night.adr_minor, currency)}</td>
      <td class="num">{orderAmount(night.revpar_minor, currency)}</td>
    </tr>
  );
}

function Occupancy({ figures }: { figures: ReportFigures }) {
  return (
    <Table head={['Night', 'Rooms in service', 'Rooms sold', 'Occupancy', 'Room revenue', 'ADR', 'RevPAR']}>
      {figures.nights.map((n) => (
        <NightRow night={n} currency={figures.currency} heading={formatDate(n.date)} />
      ))}
      <NightRow night={figures.total} currency={figures.currency} heading="Total" />
    </Table>
  );
}

function Origins({ figures }: { figures: ReportFigures }) {
  return (
    <Table head={['Origin', 'Bookings', 'Room nights', 'Room revenue', 'Cancelled', 'No-shows']}>
      {figures.origins.map((o) => (
        <tr>
          <th scope="row">{ORIGIN_WORDS[o.origin]}</th>
          <td class="num">{formatCount(o.bookings)}</td>
          <td class="num">{formatCount(o.room_nights)}</td>
          <td class="num">{orderAmount(o.revenue_minor, figures.currency)}</td>
          <td class="num">{formatCount(o.cancelled)}</td>
          <td class="num">{formatCount(o.no_shows)}</td>
        </tr>
      ))}
    </Table>
  );
}

function Payments({ figures }: { figures: ReportFigures }) {
  if (figures.payments.length === 0) return <Empty>No payments, refunds or failed orders on these days.</Empty>;
  return (
    <Table head={['Day', 'Collected', 'Refunded', 'Net', 'Orders paid', 'Orders failed', 'Orders expired']}>
      {figures.payments.map((p) => (
        <tr>
          <th scope="row">{formatDate(p.date)}</th>
          <td class="num">{orderAmount(p.collected_minor, p.currency)}</td>
          <td class="num">{orderAmount(p.refunded_minor, p.currency)}</td>
          <td class="num">{orderAmount(p.net_minor, p.currency)}</td>
          <td class="num">{formatCount(p.orders_paid)}</td>
          <td class="num">{formatCount(p.orders_failed)}</td>
          <td class="num">{formatCount(p.orders_expired)}</td>
        </tr>
      ))}
    </Table>
  );
}

function Report({ figures, links }: { figures: ReportFigures; links: Links }) {
  return (
    <>
      <p class="muted">
        {formatDate(figures.from)} to {formatDate(figures.to)}, both nights included; dates in the hotel's time zone ({figures.time_zone}).
      </p>
      <section aria-labelledby="occupancy">
        <h2 id="occupancy">Occupancy and revenue</h2>
        <ReportChart nights={figures.nights} currency={figures.currency} />
        <Occupancy figures={figures} />
        <Download links={links} figures={figures} table="occupancy" />
      </section>
      <section aria-labelledby="origins">
        <h2 id="origins">By origin</h2>
        <Origins figures={figures} />
        <Download links={links} figures={figures} table="origins" />
      </section>
      <section aria-labelledby="payments">
        <h2 id="payments">Payments by day</h2>
        <Payments figures={figures} />
        <Download links={links} figures={figures} table="payments" />
      </section>
    </>
  );
}

/** The range asked for, or the refusal to show beside the fields. */
function rangeOf(query: Record<string, string>, today: string): { range: ReportRange } | { error: AppError } {
  try {
    return { range: reportRange(query, today) };
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return { error };
    throw error;
  }
}

export const reportsPage: PageAction = async (request) => {
  const { operator, links, query } = request;
  const { today } = await hotelToday(request);
  const asked = rangeOf(query, today);
  const problems = 'error' in asked ? splitErrors(asked.error, { from: 'from', to: 'to' }) : { fields: {} };
  const figures = 'range' in asked ? await reportOf(operator.client_id, asked.range) : undefined;
  const values = figures ? { from: figures.from, to: figures.to } : { from: query.from, to: query.to };
  return {
    status: figures ? 200 : 400,
    html: (
      <Page title="Reports" links={links} operator={operator} nav="reports" notice={request.notice}>
        <RangeForm links={links} values={values} fieldErrors={problems.fields} />
        {figures ? <Report figures={figures} links={links} /> : <Empty>Correct the dates to see the report.</Empty>}
      </Page>
    ),
  };
};

/** A table of the report as CSV: `/dashboard/reports/{occupancy|origins|payments}.csv?from=&to=`. */
export const reportCsv: PageAction = async (request) => {
  const table = REPORT_TABLES.find((t) => request.params.file === `${t}.csv`);
  if (!table) throw errors.notFound();
  const { today } = await hotelToday(request);
  const figures = await reportOf(request.operator.client_id, reportRange(request.query, today));
  return { raw: csvOf(figures, table), contentType: 'text/csv; charset=utf-8', download: reportFileName(figures, table) };
};
