/**
 * The authenticator key an operator who must set one up at sign-in was shown, kept while the
 * set-up is under way: signing in again shows the same key (an app already scanned keeps
 * working) instead of asking Cognito for a new one, which would replace it. Kept sealed under the
 * operator's password (shared/secrets/password-sealing.ts: the domain seals and opens it; this
 * store never sees the key). One item per operator, under the SHA-256 of the Cognito username;
 * TTL removes it after `expiresAt`, and the code checks the time regardless. Cleared when the
 * set-up completes.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './dynamo';
import { keys } from './keys';

const keyOf = (username: string) => keys.pendingTotpSetup(createHash('sha256').update(username).digest('hex'));

/** The sealed key shown to the operator, while its set-up is under way and not past `now`. */
export async function getPendingTotpSecret(username: string, now: Date): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keyOf(username), ConsistentRead: true }));
  const sealed = Item?.sealed;
  return typeof sealed === 'string' && sealed && Number(Item?.expires_at) * 1000 > now.getTime() ? sealed : undefined;
}

/** Keeps the sealed key shown to the operator until `expiresAt`. */
export async function putPendingTotpSecret(username: string, sealed: string, expiresAt: Date): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...keyOf(username), entity: 'pending_totp_setup', sealed, expires_at: Math.ceil(expiresAt.getTime() / 1000) } }));
}

/** The set-up is done: the key is no longer kept (the item stays, empty, until its TTL). */
export async function clearPendingTotpSecret(username: string, now: Date): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...keyOf(username), entity: 'pending_totp_setup', sealed: '', expires_at: Math.ceil(now.getTime() / 1000) } }));
}
