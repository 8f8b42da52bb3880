/**
 * A client's room categories on the single table (docs/data-model.md): Query the client
 * partition by sort-key prefix; property sync writes them in batches.
 */
import { batchPut, prefixRange, queryAll } from './batch';
import { keys } from './keys';
import { fromItem } from './items';

export interface CategoryRecord {
  id: string;
  external_source: string;
  external_category_id: string;
  name: string;
  base_price?: number;
  max_occupancy?: number;
  description?: string;
  amenities: string[];
  images: unknown[];
  /** The picture of the type on the guest pages (https). */
  image_url?: string;
  is_active: boolean;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

export async function listCategories(clientId: string): Promise<CategoryRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ...prefixRange(keys.categoryPrefix) },
    ConsistentRead: true,
  });
  return items.map((item) => fromItem<CategoryRecord>(item));
}

/** `beforeChunk` may stop the writes between BatchWriteItem calls (batchPut). */
export async function putCategories(clientId: string, categories: readonly CategoryRecord[], beforeChunk?: () => void): Promise<number> {
  return batchPut(
    categories.map((c) => ({ ...keys.category(clientId, c.external_source, c.external_category_id), entity: 'category', ...c })),
    beforeChunk,
  );
}
