/**
 * The reports' presentation: CSV by RFC 4180 (quoting, CRLF, header row, plain decimals), the
 * JSON of `ops reports occupancy`, and the server-drawn SVG chart's geometry and markup.
 */
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDayShort, formatTime, plainDecimal } from '../../shared/dashboard/format';
import { chartGeometry, niceCeiling, ReportChart } from '../../shared/dashboard/report-chart';
import { reportCsv, reportJson, toCsv } from '../../shared/dashboard/report-files';
import type { ReportFigures } from '../../shared/domain/reports/figures';

const figures: ReportFigures = {
  from: '2026-11-01',
  to: '2026-11-02',
  time_zone: 'Europe/Lisbon',
  currency: 'EUR',
  nights: [
    { date: '2026-11-01', rooms_in_service: 4, rooms_sold: 3, occupancy_percent: 75, revenue_minor: 36050, adr_minor: 12017, revpar_minor: 9013 },
    { date: '2026-11-02', rooms_in_service: 4, rooms_sold: 0, occupancy_percent: 0, revenue_minor: 0, adr_minor: null, revpar_minor: 0 },
  ],
  total: { rooms_in_service: 8, rooms_sold: 3, occupancy_percent: 37.5, revenue_minor: 36050, adr_minor: 12017, revpar_minor: 4506 },
  origins: [
    { origin: 'pms', bookings: 2, room_nights: 2, revenue_minor: 24000, cancelled: 1, no_shows: 0 },
    { origin: 'booking_page', bookings: 1, room_nights: 1, revenue_minor: 12050, cancelled: 0, no_shows: 1 },
    { origin: 'reception', bookings: 0, room_nights: 0, revenue_minor: 0, cancelled: 0, no_shows: 0 },
    { origin: 'partner', bookings: 0, room_nights: 0, revenue_minor: 0, cancelled: 0, no_shows: 0 },
  ],
  payments: [{ date: '2026-11-01', currency: 'JPY', collected_minor: 5000, refunded_minor: 1000, net_minor: 4000, orders_paid: 1, orders_failed: 2, orders_expired: 0 }],
};

describe('report CSV', () => {
  it('quotes by RFC 4180 and ends every line with CRLF', () => {
    expect(toCsv(['a', 'b'], [['plain', 'with, comma'], ['say "hi"', 'two\nlines'], [null, 3]])).toBe('a,b\r\nplain,"with, comma"\r\n"say ""hi""","two\nlines"\r\n,3\r\n');
  });

  it('writes each table with a header row, YYYY-MM-DD dates and plain decimals', () => {
    expect(reportCsv(figures, 'occupancy')).toBe(
      [
        'date,rooms_in_service,rooms_sold,occupancy_percent,revenue,adr,revpar,currency',
        '2026-11-01,4,3,75,360.50,120.17,90.13,EUR',
        '2026-11-02,4,0,0,0.00,,0.00,EUR',
        'total,8,3,37.5,360.50,120.17,45.06,EUR',
        '',
      ].join('\r\n'),
    );
    expect(reportCsv(figures, 'origins').split('\r\n').slice(0, 3)).toEqual(['origin,bookings,room_nights,revenue,currency,cancelled,no_shows', 'pms,2,2,240.00,EUR,1,0', 'booking_page,1,1,120.50,EUR,0,1']);
    expect(reportCsv(figures, 'payments')).toBe('date,currency,collected,refunded,net,orders_paid,orders_failed,orders_expired\r\n2026-11-01,JPY,5000,1000,4000,1,2,0\r\n');
  });

  it('gives the same rows as JSON', () => {
    const json = JSON.parse(JSON.stringify(reportJson(figures)));
    expect(json.nights[0]).toEqual({ date: '2026-11-01', rooms_in_service: 4, rooms_sold: 3, occupancy_percent: 75, revenue: '360.50', adr: '120.17', revpar: '90.13', currency: 'EUR' });
    expect(json.total).toEqual({ rooms_in_service: 8, rooms_sold: 3, occupancy_percent: 37.5, revenue: '360.50', adr: '120.17', revpar: '45.06', currency: 'EUR' });
    expect(json.nights).toHaveLength(2);
    expect(json.payments[0].collected).toBe('5000');
  });

  it('writes amounts and dates for people and files', () => {
    expect(plainDecimal(124050, 'USD')).toBe('1240.50');
    expect(plainDecimal(5, 'USD')).toBe('0.05');
    expect(plainDecimal(-1234, 'KWD')).toBe('-1.234');
    expect(plainDecimal(5000, 'JPY')).toBe('5000');
    expect(formatDate('2026-12-04')).toBe('Fri 4 Dec 2026');
    // Every month in three letters, September too (Intl's en-GB writes "Sept").
    expect([formatDate('2026-09-04'), formatDayShort('2026-09-04'), formatTime('UTC', '2026-09-04T14:05:00Z')]).toEqual(['Fri 4 Sep 2026', 'Fri 4 Sep', '4 Sep 2026, 14:05']);
  });
});

describe('report chart', () => {
  it('scales bars to occupancy and the line to a round revenue top', () => {
    expect([0, 1, 7, 10, 11, 199, 36050].map(niceCeiling)).toEqual([1, 1, 10, 10, 20, 200, 50000]);
    const g = chartGeometry(figures.nights);
    expect(g.revenueTop).toBe(50000);
    expect(g.points[0]!.barHeight).toBeCloseTo(0.75 * 160);
    expect(g.points[1]!.barHeight).toBe(0);
    expect(g.points[1]!.revenueY).toBe(g.bottom);
    expect(g.points[0]!.revenueY).toBeCloseTo(g.bottom - (36050 / 50000) * 160);
  });

  it('draws one bar a night and one revenue line, named for screen readers', () => {
    const svg = renderToString(h(ReportChart, { nights: figures.nights, currency: 'EUR' }));
    expect(svg.match(/class="occupancy-bar"/g)).toHaveLength(2);
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg).toContain('aria-label="Occupancy and room revenue per night, 2026-11-01 to 2026-11-02: occupancy from 0.0% to 75.0%, revenue up to 360.50 EUR a night"');
    expect(svg).not.toContain('<script');
  });
});
