/**
 * Bulk resends larger than one request marks (docs/behaviour.md "Receivers in control"): 1,500
 * failed deliveries sent again through each of the three ways in (a receiver's replay through the
 * deliveries API, the dashboard's "Retry all failed and needs review", `ops deliveries retry
 * --client`). A request marks at most REQUEST_MARK_LIMIT (1,000) and leaves the rest to the
 * sweeper, so each test goes through the sweeper's share of the work, under the local table guard
 * (the sweeper's declared access); each ends with every delivery delivered, once, within 60 s of
 * the answer. A sweeper that cannot carry a bulk resend on publishes BulkResendNotContinued (the
 * alarm's metric) and the dashboard shows "N of M sent" until it can.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SWEEPER_METRICS } from '../../definitions/metrics';
import { supportFunctionAccess, type TableAccess } from '../../definitions/table-access';
import { takeTableRefusals } from '../../infra/local/table-guard';
import { signedInOperator, textOf } from '../support/dashboard-client';
import { type FailedDeliveries, writeFailedDeliveries } from '../support/failed-deliveries';
import { runOps } from '../support/ops-cli';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const COUNT = 1_500;
const WITHIN_MS = 60_000;

let stack: TestStack;
let receiver: Receiver;
let dir: string;
let stackFile: string;
let domain: {
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  bulk: typeof import('../../shared/domain/callbacks/bulk-resend');
  store: typeof import('../../shared/store/delivery-bulk-store');
  observability: typeof import('../../shared/observability');
};

beforeAll(async () => {
  // The sweeper carries bulk resends on in its runs: every second here, not every minute.
  stack = await startTestStack({ sweepIntervalMs: 1_000 });
  receiver = await startReceiver();
  domain = {
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    bulk: await import('../../shared/domain/callbacks/bulk-resend'),
    store: await import('../../shared/store/delivery-bulk-store'),
    observability: await import('../../shared/observability'),
  };
  dir = mkdtempSync(join(tmpdir(), 'bulk-resends-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  receiver.respondWith();
});

/** A hotel whose PMS was down: COUNT failed callback deliveries, the receiver now up. */
async function hotelWithFailures(): Promise<{ tenant: Tenant; failed: FailedDeliveries }> {
  const tenant = await stack.createTenant();
  await domain.callbacks.configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
  // Created in the last minute: "retry all" looks back from now.
  const failed = await writeFailedDeliveries(tenant.clientId, COUNT, { since: new Date(Date.now() - 60_000) });
  return { tenant, failed };
}

const arrivalsOf = (ids: Set<string>) => receiver.received.map((r) => r.headers['x-service-delivery'] as string).filter((id) => ids.has(id));

/**
 * Every one of `ids` arrived within WITHIN_MS of `answeredAt`, each once, and is recorded
 * delivered; the bulk resend was left to the sweeper (more than a request marks) and it finished.
 */
async function everyOneArrivedOnce(tenant: Tenant, { ids }: FailedDeliveries, answeredAt: number) {
  await waitFor(`${ids.size} deliveries`, async () => (new Set(arrivalsOf(ids)).size === ids.size ? true : undefined), WITHIN_MS);
  expect(Date.now() - answeredAt).toBeLessThan(WITHIN_MS);
  await waitFor(
    'every delivery recorded delivered',
    async () => ((await domain.callbacks.listDeliveries(tenant.clientId)).every((d) => d.status === 'delivered') ? true : undefined),
    30_000,
  );
  const arrived = arrivalsOf(ids);
  expect(arrived).toHaveLength(ids.size);
  expect(new Set(arrived).size).toBe(ids.size);
  const job = await domain.store.latestReplayJob(tenant.clientId);
  expect(job).toMatchObject({ total: COUNT, marked: COUNT, parts: [] });
}

describe('bulk resends the sweeper carries on', () => {
  it("a receiver's replay of 1,500 failed deliveries: each arrives once within 60 s", async () => {
    const { tenant, failed } = await hotelWithFailures();
    const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: ['deliveries:write'] });
    const answer = await stack.request('POST', '/api/v1/deliveries/replay', { key, body: { since: failed.since, until: failed.until, status: ['failed'] } });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ queued: COUNT });
    expect(await domain.store.latestReplayJob(tenant.clientId)).toMatchObject({ kind: 'replay', total: COUNT });
    await everyOneArrivedOnce(tenant, failed, Date.now());
  }, 120_000);

  it('the dashboard\'s "Retry all failed and needs review" of 1,500: each arrives once within 60 s', async () => {
    const { tenant, failed } = await hotelWithFailures();
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const page = await staff.submit('/dashboard/deliveries/retry-failed');
    const answeredAt = Date.now();
    expect(page.status).toBe(200);
    expect(textOf(page.text)).toContain('1,500 deliveries queued again. 1,500 had failed, 0 needed review.');
    expect(await domain.store.latestReplayJob(tenant.clientId)).toMatchObject({ kind: 'retry_all', total: COUNT });
    await everyOneArrivedOnce(tenant, failed, answeredAt);
  }, 120_000);

  it('`ops deliveries retry --client ID --status failed` of 1,500: each arrives once within 60 s', async () => {
    const { tenant, failed } = await hotelWithFailures();
    const run = await runOps(stackFile, ['deliveries', 'retry', '--client', tenant.clientId, '--status', 'failed', '--json']);
    const answeredAt = Date.now();
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ queued: COUNT });
    await everyOneArrivedOnce(tenant, failed, answeredAt);
  }, 120_000);

  it('a sweeper that cannot carry a retry-all on feeds its alarm and the dashboard shows "N of M sent"; once it can, every delivery arrives once', async () => {
    const { tenant, failed } = await hotelWithFailures();
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const sweeper = supportFunctionAccess['sweep-deliveries'] as TableAccess;
    const granted = sweeper.queries;
    const addMetric = vi.spyOn(domain.observability.metrics, 'addMetric');
    // The grant as it was before: the index the operators' "retry all" walks is missing.
    (sweeper as { queries?: TableAccess['queries'] }).queries = granted?.filter((index) => index !== 'gsi2');
    try {
      await staff.submit('/dashboard/deliveries/retry-failed');
      // What the request marked within its budget (at most REQUEST_MARK_LIMIT); the rest is the sweeper's.
      const { marked } = (await domain.store.latestReplayJob(tenant.clientId))!;
      expect(marked).toBeLessThanOrEqual(domain.bulk.REQUEST_MARK_LIMIT);
      await waitFor('a sweep that could not continue', async () => (addMetric.mock.calls.some(([name]) => name === SWEEPER_METRICS.bulkResendNotContinued) ? true : undefined), 20_000);
      expect(addMetric).toHaveBeenCalledWith(SWEEPER_METRICS.bulkResendNotContinued, 'Count', 1);
      expect(takeTableRefusals()).toContainEqual(expect.stringMatching(/^sweep-deliveries is not authorized to perform: dynamodb:Query on resource: table\/[^/]+\/index\/gsi2/));

      const page = await staff.get('/dashboard/deliveries');
      expect(textOf(page.text)).toMatch(new RegExp(`“Retry all failed and needs review” \\([^)]+\\) is still under way: ${marked.toLocaleString('en-US')} of 1,500 sent\\.`));
    } finally {
      (sweeper as { queries?: TableAccess['queries'] }).queries = granted;
      addMetric.mockRestore();
    }
    await everyOneArrivedOnce(tenant, failed, Date.now());
    takeTableRefusals();
    const after = await staff.get('/dashboard/deliveries');
    expect(textOf(after.text)).not.toContain('still under way');
  }, 120_000);
});
