/**
 * "Set rates" (the dashboard's Rates form) and `ops rates set`: one range of one plan set as the
 * API's PUT rates sets it (the same rules, deltas and `sequence`), and its audit entry.
 */
import { AppError, type ErrorDetail, errors } from '../../errors';
import { zodDetails } from '../../http/error-envelope';
import { putRatesBody, RATE_FIELDS } from '../../schemas/rates';
import { pushRates, type RatesResult } from '../rates/push-rates';
import type { DayValues } from '../rates/rate-days';
import { type Actor, type AuditValues, recordAction } from './actor';

/** One range of one plan: the fields of one PUT rates update, with the envelope's source and sequence. */
export type RateRange = DayValues & {
  external_source: string;
  external_rate_plan_id: string;
  date_from: string;
  date_to: string;
  days?: string[];
  sequence?: number;
};

/**
 * Sets the range (pushRates' rules and refusals; the problems' paths as the range's own fields,
 * `price` not `updates[0].price`) and records `rates.set` with what it set and how many nights changed.
 */
export async function setRates(actor: Actor, range: RateRange, now = new Date()): Promise<RatesResult> {
  const { external_source, sequence, ...update } = range;
  const parsed = putRatesBody.safeParse({ external_source, ...(sequence === undefined ? {} : { sequence }), updates: [update] });
  if (!parsed.success) throw errors.validation(ownPaths(zodDetails(parsed.error)));
  let result: RatesResult;
  try {
    const { writes: _, ...counts } = await pushRates(actor.client_id, parsed.data, { now, by: 'operator' });
    result = counts;
  } catch (error) {
    if (!(error instanceof AppError) || !error.details) throw error;
    throw new AppError(error.status, error.code, error.message, ownPaths(error.details), error.headers);
  }
  const changes: AuditValues = { external_source, external_rate_plan_id: range.external_rate_plan_id, date_from: range.date_from, date_to: range.date_to };
  if (range.days?.length) changes.days = range.days.join(' ');
  for (const field of RATE_FIELDS) if (range[field] !== undefined) changes[field] = range[field];
  if (sequence !== undefined) changes.sequence = sequence;
  changes.days_changed = result.days_changed;
  await recordAction(actor, { action: 'rates.set', changes }, now);
  return result;
}

/** A problem of the one update, named by its own field (`price`), or the form's as a whole. */
const ownPaths = (details: readonly ErrorDetail[]): ErrorDetail[] => details.map((d) => ({ ...d, path: d.path.replace(/^updates\[0\]\.?/, '') || 'form' }));
