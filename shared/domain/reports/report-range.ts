/**
 * A report's range of nights, as a form or the CLI gives it (docs/behaviour.md "Reports"): the
 * hotel's dates, both nights included, this month when none is given, at most 366 nights.
 */
import { errors, type ErrorDetail } from '../../errors';
import { addDays, isCalendarDate, nightsBetween } from '../../schemas/common';

/** The longest range a report covers, in nights. */
export const MAX_REPORT_NIGHTS = 366;

export interface ReportRange {
  from: string;
  to: string;
}

/** This month of the hotel's calendar: its first night to its last. */
export function thisMonth(today: string): ReportRange {
  const from = `${today.slice(0, 8)}01`;
  const next = addDays(from, 32);
  return { from, to: addDays(`${next.slice(0, 8)}01`, -1) };
}

/**
 * The range a form or the CLI asked for, both nights included; either left empty: this month's.
 * Every problem is one detail at its field ("from", "to"), in plain words.
 */
export function reportRange(input: { from?: string; to?: string }, today: string): ReportRange {
  const from = input.from?.trim() || undefined;
  const to = input.to?.trim() || undefined;
  if (from === undefined && to === undefined) return thisMonth(today);
  const details: ErrorDetail[] = [];
  if (from === undefined) details.push({ path: 'from', message: 'Enter the first night of the report' });
  else if (!isCalendarDate(from)) details.push({ path: 'from', message: 'From must be a real date, like 2026-11-01' });
  if (to === undefined) details.push({ path: 'to', message: 'Enter the last night of the report' });
  else if (!isCalendarDate(to)) details.push({ path: 'to', message: 'To must be a real date, like 2026-11-30' });
  if (details.length === 0 && to! < from!) details.push({ path: 'to', message: 'To must be the same as or after From' });
  else if (details.length === 0 && nightsBetween(from!, to!) + 1 > MAX_REPORT_NIGHTS) details.push({ path: 'to', message: `A report covers at most ${MAX_REPORT_NIGHTS} nights` });
  if (details.length) throw errors.validation(details, details.map((d) => d.message).join('; '));
  return { from: from!, to: to! };
}
