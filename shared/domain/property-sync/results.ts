/** The response of every sync write (docs/behaviour.md "Sync writes"). */
import { type AppError, type ErrorDetail, errors } from '../../errors';
import { isConditionFailure } from '../../store/items';

export type SyncAction = 'created' | 'updated' | 'unchanged' | 'linked';

export interface SyncResult<Item> {
  external_source: string;
  received: number;
  created: number;
  updated: number;
  unchanged: number;
  items: Item[];
}

export function summarize<Item extends { action: SyncAction }>(source: string, items: Item[]): SyncResult<Item> {
  const count = (action: SyncAction) => items.filter((i) => i.action === action).length;
  return {
    external_source: source,
    received: items.length,
    created: count('created'),
    // A linked room is an existing room that was updated with external ids.
    updated: count('updated') + count('linked'),
    unchanged: count('unchanged'),
    items,
  };
}

/** created, updated or unchanged, by comparing the stored content hash with the incoming one. */
export function upsertAction(previous: { content_hash?: string } | undefined, hash: string): Exclude<SyncAction, 'linked'> {
  if (!previous) return 'created';
  return previous.content_hash === hash ? 'unchanged' : 'updated';
}

export function unknownReference(details: ErrorDetail[]): AppError {
  return errors.unknownReference(details);
}

/** Two items of one request with the same identity. */
export function duplicateIds<T>(values: readonly T[], idOf: (v: T) => string, path: (i: number) => string, what: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  values.forEach((value, i) => {
    const id = idOf(value);
    if (seen.has(id)) details.push({ path: path(i), message: `duplicate ${what} ${id} in this request` });
    seen.add(id);
  });
  return details;
}

/**
 * Runs a read-decide-write sync again when a concurrent writer changed what it read
 * (a failed condition); the second run sees the other writer's result.
 */
export async function withConcurrencyRetry<T>(run: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isConditionFailure(error) || attempt >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 20 * attempt + Math.random() * 30));
    }
  }
}
