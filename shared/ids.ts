/** Ids the service mints. */
import { createHash, randomUUID } from 'node:crypto';

/** Namespace of this service's name-based ids (a random, fixed UUID). */
const NAMESPACE = Buffer.from('6f1c2a9e4b7d4e0f9a3b5c8d2e1f0a7b', 'hex');

/**
 * RFC 4122 version-5 UUID: the same name always gives the same id. Synced records use it, so
 * two concurrent syncs of one external record write the same item instead of two.
 */
export function nameBasedId(...parts: string[]): string {
  const hash = createHash('sha1').update(NAMESPACE).update(parts.join('\u0000'), 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const newId = randomUUID;

/** A stable digest of a record's content, to skip rewriting identical items. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

/** JSON with object keys sorted, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
