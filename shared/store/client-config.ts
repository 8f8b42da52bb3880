/**
 * A client's configuration items (profile, provider settings, endpoints) at their `CLIENTCONFIG#`
 * keys, and where versions before this partition kept them (`CLIENT#`: the `legacy…` keys of
 * shared/store/keys.ts). Data of those versions (a deployed stage, a local `.local` folder) is read
 * where it is until it is copied (docs/data-model.md "Client configuration"):
 *
 * - A read gets the new item, and only when it is absent the legacy one: one more GetItem on a miss.
 * - A write of a whole record (provider settings, an endpoint) puts it at the new key; the legacy
 *   item is shadowed from then on and never written again.
 * - A change to part of a record (the profile's settings) is an UpdateItem of the new item. When
 *   only the legacy item exists, it is first copied whole to the new key with
 *   `attribute_not_exists(pk)`, then the UpdateItem is made there: of concurrent writers one
 *   copies and every one updates the copy, so none loses another's change.
 * - Client creation and `ops clients migrate-config` write every configuration item at its new
 *   key, the provider settings and endpoints a client has not set as "unset" items (no provider,
 *   no URL), so a migrated or new client's reads never reach a legacy key: a legacy item put there
 *   later (`CLIENT#` is written by the public functions) is never read.
 */
import { GetCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './dynamo';
import { isConditionFailure } from './items';
import { keys } from './keys';

type Item = Record<string, NativeAttributeValue>;
type Key = { pk: string; sk: string };

/** The item at `key`, or when there is none the legacy one at `legacyKey`; undefined when neither exists. */
export async function getConfigItem(key: Key, legacyKey: Key, consistentRead = false): Promise<Item | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: consistentRead }));
  if (Item) return Item;
  const { Item: legacy } = await db.send(new GetCommand({ TableName: TABLE, Key: legacyKey, ConsistentRead: consistentRead }));
  return legacy;
}

/**
 * Copies the legacy item to the new key if the new one does not exist yet; a copy (or a new
 * record) another writer put first stands. Whether the item exists at the new key now.
 */
export async function copyLegacyConfigItem(key: Key, legacyKey: Key): Promise<boolean> {
  const { Item: legacy } = await db.send(new GetCommand({ TableName: TABLE, Key: legacyKey, ConsistentRead: true }));
  if (!legacy) return false;
  try {
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...legacy, ...key }, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return true;
}

/**
 * An UpdateItem of an existing configuration item at `key` (`attribute_exists(pk)`), copying it
 * from `legacyKey` first when only the legacy one exists. The item as it now stands; undefined
 * when it exists at neither key.
 */
export async function updateConfigItem(
  key: Key,
  legacyKey: Key,
  update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
): Promise<Item | undefined> {
  for (let copied = false; ; copied = true) {
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({ TableName: TABLE, Key: key, ...update, ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_NEW' }),
      );
      return Attributes;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Nothing deletes a configuration item: once copied, the item exists at the new key.
      if (copied || !(await copyLegacyConfigItem(key, legacyKey))) return undefined;
    }
  }
}

/** The "unset" items of a client's provider settings and endpoints: the client has none, and no legacy item is read. */
export function unsetConfigItems(clientId: string): Item[] {
  return [
    { ...keys.providerSettings(clientId), entity: 'provider_settings', unset: true },
    ...(['callback', 'webhook'] as const).map((kind) => ({ ...keys.endpoint(clientId, kind), entity: 'endpoint', kind, unset: true })),
  ];
}

/** The client's configuration items, each at its new key and at its legacy one. */
function configItemKeys(clientId: string): { key: Key; legacyKey: Key; unset?: Item }[] {
  const unset = unsetConfigItems(clientId);
  return [
    { key: keys.client(clientId), legacyKey: keys.legacyClient(clientId) },
    { key: keys.providerSettings(clientId), legacyKey: keys.legacyProviderSettings(clientId), unset: unset[0] },
    { key: keys.endpoint(clientId, 'callback'), legacyKey: keys.legacyEndpoint(clientId, 'callback'), unset: unset[1] },
    { key: keys.endpoint(clientId, 'webhook'), legacyKey: keys.legacyEndpoint(clientId, 'webhook'), unset: unset[2] },
  ];
}

export interface ConfigMigration {
  /** Legacy items copied to their new keys. */
  copied: number;
  /** Provider settings and endpoints the client never set, written as "unset" items. */
  unset: number;
}

/**
 * Moves one client's configuration to its `CLIENTCONFIG#` partition: each item absent at its new
 * key is copied from its legacy key, or written "unset" when there is none (never the profile).
 * Idempotent: what exists at a new key is left as it is, and the legacy items stay (never read
 * again). At most 8 reads and 4 conditional writes.
 */
export async function migrateClientConfig(clientId: string): Promise<ConfigMigration> {
  const done: ConfigMigration = { copied: 0, unset: 0 };
  for (const { key, legacyKey, unset } of configItemKeys(clientId)) {
    const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
    if (Item) continue;
    const { Item: legacy } = await db.send(new GetCommand({ TableName: TABLE, Key: legacyKey, ConsistentRead: true }));
    const item = legacy ? { ...legacy, ...key } : unset;
    if (!item) continue;
    try {
      await db.send(new PutCommand({ TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
      if (legacy) done.copied++;
      else done.unset++;
    } catch (error) {
      // Written meanwhile (a setting changed, another run): that stands.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return done;
}
