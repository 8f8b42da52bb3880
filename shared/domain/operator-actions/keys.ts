/**
 * API keys, each change with its audit entry: a key created (the dashboard's Integrations, and
 * `ops keys create`), a key of the client revoked (the dashboard), and a key revoked by its id
 * alone (`ops keys revoke`, the entry going to the key's client). The full key leaves here once.
 */
import type { ApiKeyRecord } from '../../store/api-key-store';
import { type IssuedKey, type IssueKeyInput, issueApiKey, revokeClientKey, revokeKey } from '../clients';
import { type Actor, recordAction } from './actor';

/** Issues a key for the actor's client (issueApiKey's rules and refusals) and records `key.create`. */
export async function createApiKey(actor: Actor, input: Omit<IssueKeyInput, 'clientId'>, now = new Date()): Promise<IssuedKey> {
  const issued = await issueApiKey({ ...input, clientId: actor.client_id }, now);
  const changes = { kind: issued.kind, scopes: issued.scopes.join(' ') || null, origins: issued.origins.join(' ') || null, name: issued.name ?? null };
  await recordAction(actor, { action: 'key.create', target: issued.key_id, changes }, now);
  return issued;
}

/** Revokes one of the actor's client's keys (404 NOT_FOUND for another client's or an unknown id) and records `key.revoke`. */
export async function revokeApiKey(actor: Actor, keyId: string, now = new Date()): Promise<ApiKeyRecord> {
  const revoked = await revokeClientKey(actor.client_id, keyId);
  await recordRevoke(actor, revoked, now);
  return revoked;
}

/**
 * Revokes any client's key by its id (revokeKey: 404 API_KEY_NOT_FOUND for an unknown id) and
 * records `key.revoke` on that key's client, as done by `operator`.
 */
export async function revokeKeyById(operator: string, keyId: string, now = new Date()): Promise<ApiKeyRecord> {
  const revoked = await revokeKey(keyId);
  await recordRevoke({ email: operator, client_id: revoked.client_id }, revoked, now);
  return revoked;
}

const recordRevoke = (actor: Actor, revoked: ApiKeyRecord, now: Date) =>
  recordAction(actor, { action: 'key.revoke', target: revoked.key_id, changes: { kind: revoked.kind, revoked_at: revoked.revoked_at ?? null } }, now);
