/** Operator use cases: clients and their API keys. The full key leaves here once. */
import { randomUUID } from 'node:crypto';
import { type KeyKind, SYNC_SCOPES } from '../../infra/routes';
import { generateApiKey, hashApiKey } from '../auth/api-keys';
import { normalizeOrigin } from '../auth/authorize';
import { AppError } from '../errors';
import {
  type ApiKeyRecord,
  type ClientRecord,
  createClient,
  getClient,
  listApiKeys,
  putApiKey,
  revokeApiKey,
} from '../store/api-key-store';

export interface IssueKeyInput {
  clientId: string;
  kind: KeyKind;
  scopes?: string[];
  origins?: string[];
  name?: string;
}

export interface IssuedKey {
  key_id: string;
  key: string;
  kind: KeyKind;
  scopes: string[];
  origins: string[];
  name?: string;
}

export async function createClientAccount(name: string, currency = 'USD'): Promise<ClientRecord> {
  if (!name.trim()) throw new AppError(400, 'VALIDATION_ERROR', 'A client needs a name');
  if (!/^[A-Z]{3}$/.test(currency)) throw new AppError(400, 'VALIDATION_ERROR', 'currency must be an ISO 4217 code');
  return createClient(name.trim(), currency);
}

export async function issueApiKey(input: IssueKeyInput, now = new Date()): Promise<IssuedKey> {
  await requireClient(input.clientId);
  let scopes: string[] = [];
  if (input.kind === 'sync') {
    scopes = input.scopes?.length ? [...new Set(input.scopes)] : [...SYNC_SCOPES];
    const unknown = scopes.filter((s) => !(SYNC_SCOPES as readonly string[]).includes(s));
    if (unknown.length) {
      throw new AppError(400, 'VALIDATION_ERROR', `Unknown scopes: ${unknown.join(', ')} (known: ${SYNC_SCOPES.join(', ')})`);
    }
  } else if (input.scopes?.length) {
    throw new AppError(400, 'VALIDATION_ERROR', 'Payment keys have no scopes; they can call the payment routes only');
  }
  const origins: string[] = [];
  for (const value of input.origins ?? []) {
    const origin = normalizeOrigin(value);
    if (!origin) throw new AppError(400, 'VALIDATION_ERROR', `Not an origin: ${value}`);
    if (input.kind !== 'payment') throw new AppError(400, 'VALIDATION_ERROR', 'Allowed origins apply to payment keys only');
    origins.push(origin);
  }
  const key = generateApiKey(input.kind);
  const record: ApiKeyRecord = {
    key_id: randomUUID(),
    client_id: input.clientId,
    kind: input.kind,
    scopes,
    origins: [...new Set(origins)],
    ...(input.name ? { name: input.name } : {}),
    created_at: now.toISOString(),
  };
  await putApiKey(hashApiKey(key), record);
  return { key_id: record.key_id, key, kind: record.kind, scopes: record.scopes, origins: record.origins, ...(record.name ? { name: record.name } : {}) };
}

export async function requireClient(clientId: string): Promise<ClientRecord> {
  const client = await getClient(clientId);
  if (!client) throw new AppError(404, 'NOT_FOUND', `No client ${clientId}`);
  return client;
}

export async function listClientKeys(clientId: string): Promise<ApiKeyRecord[]> {
  await requireClient(clientId);
  return listApiKeys(clientId);
}

export async function revokeKey(keyId: string): Promise<ApiKeyRecord> {
  const revoked = await revokeApiKey(keyId);
  if (!revoked) throw new AppError(404, 'NOT_FOUND', `No API key ${keyId}`);
  return revoked;
}
