/** Order references: the same for the same client and reference under one key, unpredictable without it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { withEnv } from '../support/env';

const dir = mkdtempSync(join(tmpdir(), 'order-reference-keys-'));
const keyFile = (name: string, value: string) => {
  const path = join(dir, name);
  writeFileSync(path, value, { mode: 0o600 });
  return path;
};
const base = { STAGE: 'unit', TABLE_NAME: 'unit' };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The module keeps its key for the container's life: each key gets a fresh module, as a new container would. */
async function referenceUnder(file: string, clientId: string, reference: string) {
  vi.resetModules();
  return withEnv({ ...base, ORDER_REFERENCE_KEY_FILE: file }, async () => {
    const { orderReferenceFor } = await import('../../shared/domain/payments/order-references');
    return orderReferenceFor(clientId, reference);
  });
}

describe('order references', () => {
  const a = keyFile('a.key', 'first-random-key-material\n');
  const b = keyFile('b.key', 'second-random-key-material\n');

  it('are stable under one key, so concurrent creates of one reference meet on one order', async () => {
    const first = await referenceUnder(a, 'client-1', 'INV-1');
    expect(first).toMatch(/^PO-[A-Z2-9]{12}$/);
    expect(await referenceUnder(a, 'client-1', 'INV-1')).toBe(first);
  });

  it('differ per client, per reference and per key', async () => {
    const first = await referenceUnder(a, 'client-1', 'INV-1');
    expect(await referenceUnder(a, 'client-2', 'INV-1')).not.toBe(first);
    expect(await referenceUnder(a, 'client-1', 'INV-2')).not.toBe(first);
    expect(await referenceUnder(b, 'client-1', 'INV-1')).not.toBe(first);
  });

  it('cannot be made without a configured key', async () => {
    vi.resetModules();
    await withEnv({ ...base, ORDER_REFERENCE_KEY_FILE: undefined, ORDER_REFERENCE_KEY_SECRET_ARN: undefined }, async () => {
      const { orderReferenceFor } = await import('../../shared/domain/payments/order-references');
      await expect(orderReferenceFor('client-1', 'INV-1')).rejects.toThrow(/ORDER_REFERENCE_KEY_FILE or ORDER_REFERENCE_KEY_SECRET_ARN/);
    });
  });
});
