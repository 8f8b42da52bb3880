/**
 * The reports' chart, drawn on the server as SVG (the pages run no script): occupancy per night as
 * bars against 0-100 % on the left, room revenue as a line against its own scale on the right.
 * Its accessible name says what it shows; the same figures are in the table under it.
 */
import type { NightFigures } from '../domain/reports/figures';
import { formatAmount, formatPercent } from './format';

export const CHART = { width: 760, height: 200, left: 40, right: 100, top: 12, bottom: 28 } as const;

/** A round top for the revenue scale: 1, 2 or 5 times a power of ten, at least the highest night. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= value)!;
}

/** Where each night sits and how tall its bar and revenue point are, in SVG units. */
export function chartGeometry(nights: readonly NightFigures[]) {
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = plotWidth / Math.max(nights.length, 1);
  const revenueTop = niceCeiling(Math.max(0, ...nights.map((n) => n.revenue_minor)));
  const bottom = CHART.top + plotHeight;
  return {
    slot,
    revenueTop,
    bottom,
    points: nights.map((n, i) => {
      const barHeight = ((n.occupancy_percent ?? 0) / 100) * plotHeight;
      return {
        x: CHART.left + i * slot,
        center: CHART.left + (i + 0.5) * slot,
        barTop: bottom - barHeight,
        barHeight,
        revenueY: bottom - (n.revenue_minor / revenueTop) * plotHeight,
      };
    }),
  };
}

/** Which nights get a date under the axis: all of a fortnight, about 12 spread over a longer range. */
const labelled = (count: number, i: number) => count <= 16 || i % Math.ceil(count / 12) === 0;

export function ReportChart({ nights, currency }: { nights: readonly NightFigures[]; currency: string }) {
  const g = chartGeometry(nights);
  const bar = Math.max(g.slot * 0.7, 1);
  const line = g.points.map((p) => `${p.center.toFixed(1)},${p.revenueY.toFixed(1)}`).join(' ');
  const first = nights[0];
  const last = nights[nights.length - 1];
  const label =
    first && last
      ? `Occupancy and room revenue per night, ${first.date} to ${last.date}: occupancy from ${formatPercent(Math.min(...nights.map((n) => n.occupancy_percent ?? 0)))} to ${formatPercent(Math.max(...nights.map((n) => n.occupancy_percent ?? 0)))}, revenue up to ${formatAmount(Math.max(...nights.map((n) => n.revenue_minor)), currency)} a night`
      : 'No nights';
  const right = CHART.width - CHART.right;
  return (
    <figure class="chart report-chart">
      <svg viewBox={`0 0 ${CHART.width} ${CHART.height}`} role="img" aria-label={label}>
        <line x1={CHART.left} y1={g.bottom} x2={right} y2={g.bottom} stroke="#8c959f" />
        <text x={CHART.left - 4} y={CHART.top + 4} text-anchor="end" font-size="10" fill="#4a5360">100%</text>
        <text x={CHART.left - 4} y={g.bottom} text-anchor="end" font-size="10" fill="#4a5360">0%</text>
        <text x={right + 4} y={CHART.top + 4} font-size="10" fill="#8a3b12">{formatAmount(g.revenueTop, currency)}</text>
        {g.points.map((p) => (
          <rect class="occupancy-bar" x={(p.x + (g.slot - bar) / 2).toFixed(1)} y={p.barTop.toFixed(1)} width={bar.toFixed(1)} height={p.barHeight.toFixed(1)} fill="#0b5cad" />
        ))}
        <polyline class="revenue-line" points={line} fill="none" stroke="#c4561b" stroke-width="2" />
        {nights.map((n, i) =>
          labelled(nights.length, i) ? (
            <text x={g.points[i]!.center.toFixed(1)} y={g.bottom + 14} text-anchor="middle" font-size="10" fill="#4a5360">
              {`${Number(n.date.slice(8))}/${Number(n.date.slice(5, 7))}`}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <span class="key-occupancy">Bars: occupancy</span> · <span class="key-revenue">Line: room revenue ({currency})</span>
      </figcaption>
    </figure>
  );
}
