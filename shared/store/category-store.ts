/**
 * A client's room categories on the single table (docs/data-model.md): Query the client
 * partition by sort-key prefix; property sync writes them in batches.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut, prefixRange, queryAll } from './batch';
import { db, TABLE } from './dynamo';
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
  /** The picture of the type on the guest pages (https), as the PMS syncs it. */
  image_url?: string;
  /** The picture set on the dashboard (https): kept across syncs, shown before the PMS's `image_url`. */
  picture_url?: string;
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

/** The type's picture as the guest pages show it: the dashboard's, else the PMS's. */
export const pictureOf = (category: Pick<CategoryRecord, 'picture_url' | 'image_url'> | undefined): string | undefined => category?.picture_url || category?.image_url || undefined;

/**
 * Sets (or, with null, removes) the dashboard's picture of an existing category: one UpdateItem
 * on the category's item, which the next sync carries over (sync-categories.ts). False when the
 * category is not there.
 */
export async function setCategoryPicture(clientId: string, category: Pick<CategoryRecord, 'external_source' | 'external_category_id'>, url: string | null, now: Date): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.category(clientId, category.external_source, category.external_category_id),
        UpdateExpression: url ? 'SET picture_url = :url, updated_at = :at' : 'REMOVE picture_url SET updated_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ...(url ? { ':url': url } : {}), ':at': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
