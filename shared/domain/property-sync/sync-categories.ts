/** PUT room-categories: upsert by external_source + external_category_id. */
import { contentHash, nameBasedId } from '../../ids';
import type { PutCategoriesBody } from '../../schemas/property-sync';
import { type CategoryRecord, listCategories, putCategories } from '../../store/category-store';
import { errors } from '../../errors';
import { BATCH_PUT_PARALLEL_ITEMS } from '../../store/batch';
import { duplicateIds, summarize, upsertAction } from './results';
import { ensureTimeForNextWrite, ensureTimeForWrites, type TimeBudget, UNLIMITED_TIME, writeRounds } from './time-budget';

export async function syncCategories(clientId: string, body: PutCategoriesBody, options: { now?: Date; budget?: TimeBudget } = {}) {
  const { now = new Date(), budget = UNLIMITED_TIME } = options;
  const source = body.external_source;
  const duplicates = duplicateIds(body.categories, (c) => c.external_category_id, (i) => `categories[${i}].external_category_id`, 'external_category_id');
  if (duplicates.length) throw errors.validation(duplicates);

  const existing = new Map(
    (await listCategories(clientId)).filter((c) => c.external_source === source).map((c) => [c.external_category_id, c]),
  );
  const timestamp = now.toISOString();
  const writes: CategoryRecord[] = [];
  const items = body.categories.map((input) => {
    const content = {
      name: input.name,
      base_price: input.base_price,
      max_occupancy: input.max_occupancy,
      description: input.description,
      amenities: input.amenities ?? [],
      images: input.images ?? [],
      image_url: input.image_url,
      is_active: input.is_active ?? true,
    };
    const hash = contentHash(content);
    const previous = existing.get(input.external_category_id);
    const id = previous?.id ?? nameBasedId(clientId, 'category', source, input.external_category_id);
    const action = upsertAction(previous, hash);
    if (action !== 'unchanged') {
      writes.push({
        id,
        external_source: source,
        external_category_id: input.external_category_id,
        ...content,
        // The dashboard's picture is an item of its own (category-store.ts): a sync never writes it.
        content_hash: hash,
        created_at: previous?.created_at ?? timestamp,
        updated_at: timestamp,
      });
    }
    return { external_category_id: input.external_category_id, id, action };
  });
  ensureTimeForWrites(budget, writeRounds(writes.length, BATCH_PUT_PARALLEL_ITEMS));
  if (writes.length) await putCategories(clientId, writes, () => ensureTimeForNextWrite(budget));
  return summarize(source, items);
}
