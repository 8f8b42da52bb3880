/**
 * Hotels' booking-page slugs (`/book/<slug>`): one item per slug naming its client, so a slug is
 * unique across clients and the guest page finds its client with one GetItem. The client's
 * profile keeps its current slug; setting a new one writes the new item, the profile and the old
 * item's deletion in one transaction (docs/data-model.md "Slugs").
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './dynamo';
import { keys } from './keys';

/** The client whose booking page has this slug; undefined when no hotel has it. */
export async function clientIdOfSlug(slug: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.clientSlug(slug) }));
  return typeof Item?.client_id === 'string' ? Item.client_id : undefined;
}

/** Why a slug change was refused: the slug is another client's, or the profile changed meanwhile (or there is none). */
export type SlugRefusal = 'taken' | 'profile';

/**
 * Gives the client `slug` (null: none) in place of `previous` (its profile's slug as read): the
 * new slug item (only if free or already the client's), the profile (only if its slug is still
 * `previous`) and the previous item's deletion, together. The refusal, or undefined when done.
 */
export async function replaceClientSlug(clientId: string, slug: string | null, previous: string | undefined): Promise<SlugRefusal | undefined> {
  const profile = keys.client(clientId);
  const items = [
    ...(slug
      ? [
          {
            Put: {
              TableName: TABLE,
              Item: { ...keys.clientSlug(slug), entity: 'client_slug', client_id: clientId },
              ConditionExpression: 'attribute_not_exists(pk) OR client_id = :client',
              ExpressionAttributeValues: { ':client': clientId },
            },
          },
        ]
      : []),
    {
      Update: {
        TableName: TABLE,
        Key: profile,
        UpdateExpression: slug ? 'SET #slug = :slug' : 'REMOVE #slug',
        ConditionExpression: previous ? 'attribute_exists(pk) AND #slug = :previous' : 'attribute_exists(pk) AND attribute_not_exists(#slug)',
        ExpressionAttributeNames: { '#slug': 'slug' },
        ...(slug || previous ? { ExpressionAttributeValues: { ...(slug ? { ':slug': slug } : {}), ...(previous ? { ':previous': previous } : {}) } } : {}),
      },
    },
    ...(previous && previous !== slug
      ? [{ Delete: { TableName: TABLE, Key: keys.clientSlug(previous), ConditionExpression: 'client_id = :client', ExpressionAttributeValues: { ':client': clientId } } }]
      : []),
  ];
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return undefined;
  } catch (error) {
    const reasons = (error as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if ((error as Error).name !== 'TransactionCanceledException' || !reasons) throw error;
    if (slug && reasons[0]?.Code === 'ConditionalCheckFailed') return 'taken';
    return 'profile';
  }
}
