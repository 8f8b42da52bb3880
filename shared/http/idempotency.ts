/**
 * The Idempotency-Key header (docs/behaviour.md "Idempotency-Key"): Powertools idempotency around the route's use
 * case, persisted on the single table (shared/store/idempotency-store.ts). The key is scoped by
 * client + method + path + header value; the body is compared by a hash of its canonical JSON. Outcomes below 500 are stored
 * and replayed; a 5xx is thrown, so Powertools deletes the record and a retry runs again.
 */
import type { Context } from 'aws-lambda';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../config';
import { AppError, errors } from '../errors';
import { idempotencyPersistenceStore } from '../store/idempotency-store';
import { keys } from '../store/keys';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * Powertools idempotency, with the JMESPath engine under it, loaded by the first request that
 * carries an Idempotency-Key: most requests carry none, and a cold start does not pay for it.
 */
let powertools: ReturnType<typeof loadPowertools> | undefined;

async function loadPowertools() {
  const [idempotency, persistenceStore] = await Promise.all([import('@aws-lambda-powertools/idempotency'), idempotencyPersistenceStore()]);

  const config = new idempotency.IdempotencyConfig({
    eventKeyJmesPath: '[scope, key]',
    payloadValidationJmesPath: 'body',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    throwOnNoIdempotencyKey: true,
    responseHook: (response) => ({ ...(response as object), replayed: true }),
  });
  return { ...idempotency, persistenceStore, config };
}

/** The response as sent: the body is kept as JSON text so a replay is byte-identical. */
export interface StoredOutcome {
  status: number;
  bodyJson: string;
  headers?: Record<string, string>;
  replayed?: boolean;
}

interface IdempotentCall {
  scope: string;
  key: string;
  body: unknown;
}

export function readIdempotencyKey(headers: Record<string, string>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw errors.validation([{ path: 'headers.Idempotency-Key', message: `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` }]);
  }
  return key;
}

/**
 * Runs `execute` at most once per scope + key. `toOutcome` turns a 4xx AppError into a stored
 * outcome; anything else propagates.
 */
export async function runIdempotent(
  call: IdempotentCall,
  context: Context,
  execute: () => Promise<StoredOutcome>,
  toOutcome: (error: AppError) => StoredOutcome,
): Promise<StoredOutcome> {
  powertools ??= loadPowertools();
  const { makeIdempotent, persistenceStore, config, IdempotencyValidationError, IdempotencyAlreadyInProgressError } = await powertools;
  const once = makeIdempotent(
    async (_call: IdempotentCall): Promise<StoredOutcome> => {
      let outcome: StoredOutcome;
      try {
        outcome = await execute();
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        outcome = toOutcome(error);
      }
      return { status: outcome.status, bodyJson: outcome.bodyJson, ...(outcome.headers ? { headers: outcome.headers } : {}) };
    },
    { persistenceStore, config, keyPrefix: keys.idempotency.prefix },
  );
  config.registerLambdaContext(context);
  try {
    return (await once(call)) as StoredOutcome;
  } catch (error) {
    if (error instanceof IdempotencyValidationError) {
      throw errors.idempotencyKeyReused();
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw errors.idempotencyRequestInProgress();
    }
    throw error;
  }
}
