/** API key format, generation and hashing. Only the SHA-256 digest of a key is ever stored. */
import { createHash, randomBytes } from 'node:crypto';
import type { KeyKind } from '../../definitions/routes';

export const KEY_PREFIX: Record<KeyKind, string> = { sync: 'svc_sync_', payment: 'svc_pay_' };

/** 32 random bytes in base64url are 43 characters. */
const KEY_BODY = /^[A-Za-z0-9_-]{43,128}$/;

export function generateApiKey(kind: KeyKind): string {
  return KEY_PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The kind a well-formed key claims by its prefix, or undefined for a malformed key. */
export function kindOfKey(key: string): KeyKind | undefined {
  for (const kind of Object.keys(KEY_PREFIX) as KeyKind[]) {
    const prefix = KEY_PREFIX[kind];
    if (key.startsWith(prefix) && KEY_BODY.test(key.slice(prefix.length))) return kind;
  }
  return undefined;
}

export interface PresentedKey {
  key: string;
  header: 'authorization' | 'x-api-key';
}

/** Reads the key from `Authorization: Bearer` or `x-api-key` (headers in lower case). */
export function presentedKey(headers: Record<string, string | undefined>): PresentedKey | undefined {
  const authorization = headers['authorization']?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    return { key: match ? match[1]! : authorization, header: 'authorization' };
  }
  const apiKey = headers['x-api-key']?.trim();
  return apiKey ? { key: apiKey, header: 'x-api-key' } : undefined;
}
