/**
 * Operators' password confirmations (shared/domain/reauthentication.ts): one item per
 * confirmation, in the client's configuration partition (`CLIENTCONFIG#`), under the SHA-256 of the token its browser holds.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './dynamo';
import { fromItem } from './items';
import { keys } from './keys';

export interface ReauthRecord {
  /** The operator (e-mail) who confirmed the password. */
  operator: string;
  /** ISO time of the confirmation. */
  confirmed_at: string;
}

/** Writes a confirmation; TTL removes it after `expiresAt` (the code checks its age regardless). */
export async function putReauth(clientId: string, tokenHash: string, record: ReauthRecord, expiresAt: Date): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...keys.operatorReauth(clientId, tokenHash), entity: 'operator_reauth', ...record, expires_at: Math.ceil(expiresAt.getTime() / 1000) },
    }),
  );
}

export async function getReauth(clientId: string, tokenHash: string): Promise<ReauthRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.operatorReauth(clientId, tokenHash), ConsistentRead: true }));
  if (!Item) return undefined;
  const { operator, confirmed_at } = fromItem<ReauthRecord & { expires_at?: number }>(Item);
  return { operator, confirmed_at };
}
