/**
 * A client's room categories on the single table (docs/data-model.md): Query the client
 * partition by sort-key prefix; property sync writes them in batches. The dashboard's pictures
 * are items of their own beside them (`CATEGORYPICTURE#`), read by the same Query.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut, queryAll } from './batch';
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
  /** The picture set on the dashboard (https), from its own item (never written by a sync): shown before the PMS's `image_url`. */
  picture_url?: string;
  is_active: boolean;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

const pictureKey = (source: string, externalCategoryId: string) => `${source}\u0000${externalCategoryId}`;

/** The client's categories, each with the dashboard's picture where one is set: one Query (both prefixes). */
export async function listCategories(clientId: string): Promise<CategoryRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':from': keys.categoryPrefix, ':to': `${keys.categoryPicturePrefix}\uffff` },
    ConsistentRead: true,
  });
  const pictures = new Map<string, string>();
  for (const item of items) {
    if (item.entity === 'category_picture' && typeof item.picture_url === 'string' && item.picture_url) pictures.set(pictureKey(item.external_source, item.external_category_id), item.picture_url);
  }
  return items
    .filter((item) => item.entity !== 'category_picture')
    .map((item) => {
      const { picture_url: _stored, ...category } = fromItem<CategoryRecord>(item);
      const picture = pictures.get(pictureKey(category.external_source, category.external_category_id));
      return picture ? { ...category, picture_url: picture } : category;
    });
}

/** `beforeChunk` may stop the writes between BatchWriteItem calls (batchPut). */
export async function putCategories(clientId: string, categories: readonly CategoryRecord[], beforeChunk?: () => void): Promise<number> {
  return batchPut(
    categories.map((c) => ({ ...keys.category(clientId, c.external_source, c.external_category_id), entity: 'category', ...c })),
    beforeChunk,
  );
}

/** What the guest pages say of a type from its category: its description, amenities and picture, where given. */
export function aboutCategory(category: CategoryRecord | undefined): { description?: string; amenities?: string[]; image_url?: string } {
  const description = category?.description?.trim();
  const amenities = (category?.amenities ?? []).map((a) => a.trim()).filter(Boolean);
  const image_url = pictureOf(category);
  return { ...(description ? { description } : {}), ...(amenities.length ? { amenities } : {}), ...(image_url ? { image_url } : {}) };
}

/** The type's picture as the guest pages show it: the dashboard's, else the PMS's. */
export const pictureOf = (category: Pick<CategoryRecord, 'picture_url' | 'image_url'> | undefined): string | undefined => category?.picture_url || category?.image_url || undefined;

/**
 * Sets (or, with null, removes) the dashboard's picture of a category: one PutItem of its own
 * item, which no sync writes (a sync that read the categories before it was set cannot drop it).
 * Removing writes the item empty.
 */
export async function setCategoryPicture(clientId: string, category: Pick<CategoryRecord, 'external_source' | 'external_category_id'>, url: string | null, now: Date): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.categoryPicture(clientId, category.external_source, category.external_category_id),
        entity: 'category_picture',
        external_source: category.external_source,
        external_category_id: category.external_category_id,
        picture_url: url ?? '',
        updated_at: now.toISOString(),
      },
    }),
  );
}
