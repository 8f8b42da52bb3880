/**
 * The reports' figures as files and machine output (docs/behaviour.md "Reports"): each table as
 * CSV (RFC 4180: fields quoted when they hold a comma, quote or line break, quotes doubled, CRLF
 * line ends; a header row; dates `YYYY-MM-DD`; amounts as plain decimals), and the figures as
 * JSON with decimals, for `ops reports occupancy`. Presentation only: the figures come computed.
 */
import type { ReportFigures } from '../domain/reports/figures';
import { plainDecimal } from './format';

export const REPORT_TABLES = ['occupancy', 'origins', 'payments'] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

type Cell = string | number | null;

/** One RFC 4180 field: as it is, or quoted with its quotes doubled. */
function field(value: Cell): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

const money = (minor: number | null, currency: string) => (minor === null ? null : plainDecimal(minor, currency));

/** The occupancy table's rows (nights, then the total with `date` = `total`), as the CSV and JSON give them. */
function occupancyRows(figures: ReportFigures) {
  const c = figures.currency;
  return [...figures.nights, { date: 'total', ...figures.total }].map((n) => ({
    date: n.date,
    rooms_in_service: n.rooms_in_service,
    rooms_sold: n.rooms_sold,
    occupancy_percent: n.occupancy_percent,
    revenue: money(n.revenue_minor, c),
    adr: money(n.adr_minor, c),
    revpar: money(n.revpar_minor, c),
    currency: c,
  }));
}

function originRows(figures: ReportFigures) {
  return figures.origins.map((o) => ({
    origin: o.origin,
    bookings: o.bookings,
    room_nights: o.room_nights,
    revenue: money(o.revenue_minor, figures.currency),
    currency: figures.currency,
    cancelled: o.cancelled,
    no_shows: o.no_shows,
  }));
}

function paymentRows(figures: ReportFigures) {
  return figures.payments.map((p) => ({
    date: p.date,
    currency: p.currency,
    collected: money(p.collected_minor, p.currency),
    refunded: money(p.refunded_minor, p.currency),
    net: money(p.net_minor, p.currency),
    orders_paid: p.orders_paid,
    orders_failed: p.orders_failed,
    orders_expired: p.orders_expired,
  }));
}

const ROWS: Record<ReportTable, (figures: ReportFigures) => Record<string, Cell>[]> = { occupancy: occupancyRows, origins: originRows, payments: paymentRows };
const HEADERS: Record<ReportTable, readonly string[]> = {
  occupancy: ['date', 'rooms_in_service', 'rooms_sold', 'occupancy_percent', 'revenue', 'adr', 'revpar', 'currency'],
  origins: ['origin', 'bookings', 'room_nights', 'revenue', 'currency', 'cancelled', 'no_shows'],
  payments: ['date', 'currency', 'collected', 'refunded', 'net', 'orders_paid', 'orders_failed', 'orders_expired'],
};

/** One table of the report as a CSV file. */
export function reportCsv(figures: ReportFigures, table: ReportTable): string {
  return toCsv(
    HEADERS[table],
    ROWS[table](figures).map((row) => HEADERS[table].map((name) => row[name] ?? null)),
  );
}

/** The whole report for machines (`ops reports occupancy --json`): the same rows as the CSV files. */
export function reportJson(figures: ReportFigures) {
  const rows = occupancyRows(figures);
  const { date: _total, ...total } = rows.pop()!;
  return {
    from: figures.from,
    to: figures.to,
    time_zone: figures.time_zone,
    currency: figures.currency,
    nights: rows,
    total,
    origins: originRows(figures),
    payments: paymentRows(figures),
  };
}

/** The file name a table downloads as: `occupancy-2026-11-01-to-2026-11-30.csv`. */
export const reportFileName = (figures: Pick<ReportFigures, 'from' | 'to'>, table: ReportTable) => `${table}-${figures.from}-to-${figures.to}.csv`;
