/** PUT rate-plans: upsert by external_source + external_rate_plan_id, each plan of a synced category. */
import { errors } from '../../errors';
import { contentHash, nameBasedId } from '../../ids';
import type { PutRatePlansBody } from '../../schemas/rates';
import { BATCH_PUT_PARALLEL_ITEMS } from '../../store/batch';
import { listCategories } from '../../store/category-store';
import { listRatePlans, putRatePlans, type RatePlanRecord } from '../../store/rate-store';
import { duplicateIds, summarize, upsertAction } from '../property-sync/results';
import { ensureTimeForNextWrite, ensureTimeForWrites, type TimeBudget, UNLIMITED_TIME, writeRounds } from '../property-sync/time-budget';

/** A plan's id: name-based, so two concurrent syncs of one plan write the same item. */
export const ratePlanId = (clientId: string, source: string, externalRatePlanId: string) => nameBasedId(clientId, 'rate_plan', source, externalRatePlanId);

export async function syncRatePlans(clientId: string, body: PutRatePlansBody, options: { now?: Date; budget?: TimeBudget } = {}) {
  const { now = new Date(), budget = UNLIMITED_TIME } = options;
  const source = body.external_source;
  const duplicates = duplicateIds(body.rate_plans, (p) => p.external_rate_plan_id, (i) => `rate_plans[${i}].external_rate_plan_id`, 'external_rate_plan_id');
  if (duplicates.length) throw errors.validation(duplicates);

  const [categories, plans] = await Promise.all([listCategories(clientId), listRatePlans(clientId)]);
  const known = new Set(categories.filter((c) => c.external_source === source).map((c) => c.external_category_id));
  const unknown = body.rate_plans.flatMap((plan, i) =>
    known.has(plan.external_category_id)
      ? []
      : [{ path: `rate_plans[${i}].external_category_id`, message: `no category ${plan.external_category_id} of ${source} has been synced` }],
  );
  if (unknown.length) throw errors.unknownReference(unknown);

  const existing = new Map(plans.filter((p) => p.external_source === source).map((p) => [p.external_rate_plan_id, p]));
  const timestamp = now.toISOString();
  const writes: RatePlanRecord[] = [];
  const items = body.rate_plans.map((input) => {
    const content = { external_category_id: input.external_category_id, name: input.name, description: input.description, active: input.active ?? true };
    const hash = contentHash(content);
    const previous = existing.get(input.external_rate_plan_id);
    const id = previous?.id ?? ratePlanId(clientId, source, input.external_rate_plan_id);
    const action = upsertAction(previous, hash);
    if (action !== 'unchanged') {
      writes.push({
        id,
        external_source: source,
        external_rate_plan_id: input.external_rate_plan_id,
        ...content,
        content_hash: hash,
        created_at: previous?.created_at ?? timestamp,
        updated_at: timestamp,
      });
    }
    return { external_rate_plan_id: input.external_rate_plan_id, id, action };
  });
  ensureTimeForWrites(budget, writeRounds(writes.length, BATCH_PUT_PARALLEL_ITEMS));
  if (writes.length) await putRatePlans(clientId, writes, () => ensureTimeForNextWrite(budget));
  return summarize(source, items);
}
