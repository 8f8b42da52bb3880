/**
 * The interface both sealing implementations share (shared/secrets/sealed-secrets.ts chooses
 * one). No imports: the stack's KMS key policy is written from the same constants.
 */

/** The encryption context's keys, and the kinds of secret sealed. */
export const SEALING_CONTEXT_KEYS = ['client_id', 'kind'] as const;
export const SEALED_SECRET_KINDS = ['callback', 'webhook'] as const;

/** What a sealed secret is bound to: the client it belongs to and the kind of event it signs. */
export interface SealingContext {
  client_id: string;
  kind: (typeof SEALED_SECRET_KINDS)[number];
}

export interface Sealer {
  /** The scheme's name in a sealed value (`v2:<scheme>:...`). */
  readonly scheme: string;
  /** Returns the scheme's fields, without the `v2:<scheme>:` prefix. */
  seal(plaintext: string, context: SealingContext): Promise<string>;
  /** `fields`: what follows `v2:<scheme>:`. */
  open(fields: string, context: SealingContext): Promise<string>;
}

/**
 * The sealed value will not open under this context, however often it is tried: sealed for
 * another client or kind, under another key, altered, or in a retired format. The message
 * gives the reason only, never secret material.
 */
export class SecretCannotBeOpenedError extends Error {
  override name = 'SecretCannotBeOpenedError';
}

/** The context as bytes, in a fixed key order (the local sealer's additional authenticated data). */
export function canonicalContext(context: SealingContext): Buffer {
  return Buffer.from(JSON.stringify(SEALING_CONTEXT_KEYS.map((key) => [key, context[key]])), 'utf8');
}
