/** What the rates tests share: a key with the rates scopes, a PUT that must succeed, dates ahead. */
import { expect } from 'vitest';
import { RATE_SCOPES, SYNC_SCOPES } from '../../definitions/scopes';
import { addDays } from '../../shared/schemas/common';
import type { TestStack } from './stack';

export { addDays };

/** The first `weekday` (0 Sunday … 6 Saturday) at least `minDays` after today (UTC). */
export function weekdayAhead(weekday: number, minDays: number): string {
  let date = new Date(Date.now() + minDays * 86_400_000).toISOString().slice(0, 10);
  while (new Date(`${date}T00:00:00Z`).getUTCDay() !== weekday) date = addDays(date, 1);
  return date;
}

/** A sync key of the client with the spec's five scopes and the rates scopes, and a PUT on the sync routes with it. */
export async function rateSync(stack: TestStack, clientId: string) {
  const { key } = await stack.issueKey(clientId, 'sync', { scopes: [...SYNC_SCOPES, ...RATE_SCOPES] });
  const put = async (route: string, body: unknown) => {
    const response = await stack.request('PUT', `/api/v1/property-sync/${route}`, { key, body });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  return { key, put };
}
