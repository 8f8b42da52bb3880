/**
 * PUT rates: prices and restrictions per date as deltas (docs/behaviour.md "Rates and restrictions
 * per date"). The whole request is checked before anything is written; then each plan-month it
 * touches is read, changed in request order and written whole under its version. A month another
 * push wrote meanwhile is read again and the same edits applied to it, so concurrent pushes never
 * lose an update; a month whose content would not change is not written.
 */
import { type ErrorDetail, errors } from '../../errors';
import { addDays, nightsBetween } from '../../schemas/common';
import { zodDetails } from '../../http/error-envelope';
import { MAX_PLAN_DAYS, type PutRatesEnvelope, RATE_HORIZON_DAYS, rateUpdateInput, type RateUpdateInput } from '../../schemas/rates';
import { getClient } from '../../store/api-key-store';
import { mapConcurrent } from '../../store/batch';
import { isConditionFailure } from '../../store/items';
import { getRateMonth, getRateMonths, listRatePlans, putRateMonth, type RateMonthRecord, rateMonthKey } from '../../store/rate-store';
import { timeZoneOf } from '../client-settings';
import { localDate } from '../hotel-time';
import { ensureTimeForNextWrite, ensureTimeForWrites, type TimeBudget, UNLIMITED_TIME, writeRounds } from '../property-sync/time-budget';
import { applyEdits, datesFrom, type DayEdit, type DayOutcome, dayOf, monthOf, valuesOf, weekdayOf } from './rate-days';

/** Month writes in flight at once. */
const PARALLEL_MONTH_WRITES = 16;
/** Attempts at one month while other pushes keep winning it. */
const MONTH_WRITE_ATTEMPTS = 30;

export interface RatesResult {
  external_source: string;
  received: number;
  days_changed: number;
  days_unchanged: number;
  days_stale: number;
}

interface CheckedUpdate {
  update: RateUpdateInput;
  from: string;
  to: string;
}

/**
 * Every update checked, its shape and its dates against the hotel's today (none ended, none past
 * the horizon; a start in the past moves to today), every problem of the request in one refusal.
 */
function checkUpdates(raw: readonly unknown[], today: string): CheckedUpdate[] {
  const horizon = addDays(today, RATE_HORIZON_DAYS);
  const details: ErrorDetail[] = [];
  let planDays = 0;
  const checked = raw.flatMap((value, i) => {
    const parsed = rateUpdateInput.safeParse(value);
    if (!parsed.success) {
      details.push(...zodDetails(parsed.error, ['updates', i]));
      return [];
    }
    const update = parsed.data;
    const single = update.date !== undefined;
    const from = update.date ?? update.date_from!;
    const to = update.date ?? update.date_to!;
    const endField = `updates[${i}].${single ? 'date' : 'date_to'}`;
    if (to < today) details.push({ path: endField, message: `ends before the hotel's today (${today})` });
    else if (to > horizon) details.push({ path: endField, message: `is more than ${RATE_HORIZON_DAYS} days after the hotel's today (${today})` });
    const start = from < today ? today : from;
    planDays += Math.max(0, nightsBetween(start, to) + 1);
    return [{ update, from: start, to }];
  });
  if (details.length) throw errors.validation(details);
  if (planDays > MAX_PLAN_DAYS) throw errors.tooManyPlanDays(MAX_PLAN_DAYS);
  return checked;
}

interface MonthEdits {
  ratePlanId: string;
  month: string;
  edits: DayEdit[];
}

export async function pushRates(
  clientId: string,
  body: PutRatesEnvelope,
  options: { now?: Date; budget?: TimeBudget; by?: 'sync' | 'operator' } = {},
): Promise<RatesResult & { writes: number }> {
  const { now = new Date(), budget = UNLIMITED_TIME, by = 'sync' } = options;
  const source = body.external_source;
  const [client, plans] = await Promise.all([getClient(clientId), listRatePlans(clientId)]);
  const checked = checkUpdates(body.updates, localDate(client ? timeZoneOf(client) : 'UTC', now));

  const planIds = new Map(plans.filter((p) => p.external_source === source).map((p) => [p.external_rate_plan_id, p.id]));
  const unknown = checked.map((c) => c.update).flatMap((u, i) =>
    planIds.has(u.external_rate_plan_id)
      ? []
      : [{ path: `updates[${i}].external_rate_plan_id`, message: `no rate plan ${u.external_rate_plan_id} of ${source} has been synced` }],
  );
  if (unknown.length) throw errors.unknownReference(unknown);

  const groups = new Map<string, MonthEdits>();
  for (const { update, from, to } of checked) {
    const ratePlanId = planIds.get(update.external_rate_plan_id)!;
    const values = valuesOf(update);
    const weekdays = update.days ? new Set(update.days) : undefined;
    for (const date of datesFrom(from, to)) {
      if (weekdays && !weekdays.has(weekdayOf(date))) continue;
      const key = rateMonthKey(ratePlanId, monthOf(date));
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { ratePlanId, month: monthOf(date), edits: [] }));
      group.edits.push({ day: dayOf(date), values });
    }
  }

  const stored = await getRateMonths(clientId, [...new Set([...groups.values()].map((g) => g.ratePlanId))], [...new Set([...groups.values()].map((g) => g.month))]);
  const planned = [...groups.entries()].map(([key, group]) => ({ group, read: stored.get(key), outcome: applyEdits(stored.get(key)?.days ?? {}, group.edits, body.sequence, by) }));
  const dirty = planned.filter((p) => p.outcome.dirty);
  ensureTimeForWrites(budget, writeRounds(dirty.length, PARALLEL_MONTH_WRITES));

  const counts: Record<DayOutcome, number> = { changed: 0, unchanged: 0, stale: 0 };
  const add = (more: Record<DayOutcome, number>) => (Object.keys(counts) as DayOutcome[]).forEach((k) => (counts[k] += more[k]));
  planned.filter((p) => !p.outcome.dirty).forEach((p) => add(p.outcome.counts));
  let writes = 0;
  await mapConcurrent(dirty, PARALLEL_MONTH_WRITES, async ({ group, read, outcome }) => {
    for (let attempt = 1; ; attempt++) {
      if (!outcome.dirty) return add(outcome.counts);
      ensureTimeForNextWrite(budget);
      const month: RateMonthRecord = { rate_plan_id: group.ratePlanId, month: group.month, days: outcome.days, version: (read?.version ?? 0) + 1, updated_at: now.toISOString() };
      try {
        writes++;
        await putRateMonth(clientId, month, read?.version);
        return add(outcome.counts);
      } catch (error) {
        if (!isConditionFailure(error) || attempt >= MONTH_WRITE_ATTEMPTS) throw error;
      }
      await new Promise((r) => setTimeout(r, Math.random() * 10 * Math.min(attempt, 5)));
      read = await getRateMonth(clientId, group.ratePlanId, group.month);
      outcome = applyEdits(read?.days ?? {}, group.edits, body.sequence, by);
    }
  });
  return { external_source: source, received: body.updates.length, days_changed: counts.changed, days_unchanged: counts.unchanged, days_stale: counts.stale, writes };
}
