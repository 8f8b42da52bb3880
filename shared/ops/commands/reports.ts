/**
 * `reports occupancy`: the figures of the dashboard's Reports page for a range of nights, from the
 * same use case (docs/behaviour.md "Reports"): for people, the occupancy table; `--csv` its CSV
 * file; `--json` every table. A bad range exits non-zero with the envelope's message.
 */
import { type Command, defineCommand } from '../cli';

const use = () =>
  Promise.all([import('../../domain/clients'), import('../../domain/reports/reports'), import('../../domain/reports/report-range'), import('../../domain/client-settings'), import('../../domain/hotel-time'), import('../../dashboard/report-files')]);

/** The CSV to print instead of the text for people: a symbol key, so `--json` never shows it. */
const CSV = Symbol('csv');

type Report = ReturnType<Awaited<ReturnType<typeof use>>[5]['reportJson']> & { [CSV]?: string };

/** The client and the range of nights (neither end: this month), and whether to print CSV. */
const REPORT_FLAGS = {
  client: { value: 'ID', help: 'The client', required: true },
  from: { value: 'D', help: 'The first night, YYYY-MM-DD (with --to; neither: this month)' },
  to: { value: 'D', help: 'The last night, YYYY-MM-DD, at most 366 nights on' },
  csv: { value: '', help: 'Print the occupancy table as CSV', switch: true },
} as const;

const column = (value: string | number | null, width: number) => String(value ?? '—').padStart(width);

export const reportCommands: readonly Command[] = [
  defineCommand({
    name: 'reports occupancy',
    summary: "Occupancy, revenue, ADR and RevPAR per night, by origin, and payments by day, for a range of the hotel's nights",
    flags: REPORT_FLAGS,
    async run({ flags }): Promise<Report> {
      const [{ requireClient }, { reportOf }, { reportRange }, { timeZoneOf }, { hotelClock }, files] = await use();
      const client = await requireClient(flags.client);
      const range = reportRange({ from: flags.from, to: flags.to }, hotelClock(timeZoneOf(client), new Date()).today);
      const figures = await reportOf(flags.client, range);
      return flags.csv ? Object.assign(files.reportJson(figures), { [CSV]: files.reportCsv(figures, 'occupancy') }) : files.reportJson(figures);
    },
    render: (report) =>
      report[CSV]?.replace(/\r\n$/, '') ??
      [
        `${report.from} to ${report.to} (${report.time_zone}), amounts in ${report.currency}`,
        `${'night'.padEnd(10)} ${column('rooms', 6)} ${column('sold', 6)} ${column('occ %', 6)} ${column('revenue', 12)} ${column('ADR', 10)} ${column('RevPAR', 10)}`,
        ...[...report.nights, { ...report.total, date: 'total' }].map(
          (n) => `${n.date.padEnd(10)} ${column(n.rooms_in_service, 6)} ${column(n.rooms_sold, 6)} ${column(n.occupancy_percent, 6)} ${column(n.revenue, 12)} ${column(n.adr, 10)} ${column(n.revpar, 10)}`,
        ),
      ].join('\n'),
  }),
];
