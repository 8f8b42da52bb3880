/**
 * The crash test's kill between a cancel and its refund (docs/reliability.md "Only the guest holds a
 * guest's booking": a cancellation that commits and whose process dies before its refund is made
 * leaves a "refund due" record, finished by the sweeper; no cancel needs repeating). The service
 * runs alone (test/support/service-process.ts) on emulators this process runs, and kills itself
 * the moment the guest's cancellation commits; started again, it is left alone: its sweeper must
 * make the refund, once. What a guest and a partner see is read over HTTP.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal, startSqsEmulator } from '../../infra/local/emulators';
import { exited, freeStackPorts, portsClosed, type StackPorts, startStackProcess, stopStackProcess } from './local-stack-process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export interface CancelRefundKillResult {
  problems: string[];
  /** What the partner's status lookup said at the end. */
  order?: { status: string; amount_minor: number; amount_refunded_minor: number; refunds: { status: string; amount_minor: number }[] };
  /** The guest's booking page at the end. */
  page?: string;
  /** Whether the first run died at the kill point. */
  killed: boolean;
  /** From the restart to the refund recorded (ms). */
  refundAfterRestartMs?: number;
}

export async function runCancelRefundKill(): Promise<CancelRefundKillResult> {
  const problems: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'crash-cancel-refund-'));
  const [dynamo, sqs] = await Promise.all([startDynamoLocal(), startSqsEmulator()]);
  const ports: StackPorts = await freeStackPorts();
  const env = { DYNAMODB_ENDPOINT: dynamo.endpoint, SQS_ENDPOINT: sqs.endpoint };
  const start = (extra: Record<string, string> = {}) => startStackProcess(ports, dataDir, { ...env, ...extra }, 'test/support/service-process.ts');
  let run = await start({ KILL_AFTER_CANCEL_COMMIT: '1' });
  try {
    const url = run.url;
    const syncKey = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(run.output())![1]!;
    const paymentKey = /demo payment key \(shown once\):\s+(svc_pay_\S+)/.exec(run.output())![1]!;
    const { client_id: clientId } = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { client_id: string };
    const api = (method: string, path: string, key: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(body ? { 'Idempotency-Key': `${method}-${path}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const form = (path: string, fields: Record<string, string>) =>
      fetch(path.startsWith('http') ? path : `${url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });

    const rooms = await api('PUT', '/api/v1/property-sync/rooms', syncKey, {
      external_source: 'pms',
      rooms: [{ external_room_id: 'K1', room_number: 'K1', room_type: 'double', price: 120, max_occupancy: 2 }],
    });
    const roomId = ((await rooms.json()) as { items: { id: string }[] }).items[0]!.id;

    // The guest books and pays; the checkout's redirect leads to the booking's page.
    const stay = { check_in: day(30), check_out: day(32), guests: '1' };
    const details = await (await fetch(`${url}/book/${clientId}/details?${new URLSearchParams({ ...stay, room_id: roomId })}`)).text();
    const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(details)![1]!;
    const opened = await form(`/book/${clientId}/bookings`, { ...stay, room_id: roomId, attempt, name: 'Ada Lovelace', email: 'ada@guest.example', pay: 'checkout' });
    const paid = await form(opened.headers.get('location')!, { outcome: 'paid' });
    const verified = await fetch(new URL(paid.headers.get('location')!, url), { redirect: 'manual' });
    const page = new URL(verified.headers.get('location')!).pathname;
    const orderReference = new URL(verified.headers.get('location')!).searchParams.get('payment_order')!;

    // The guest cancels: the service dies as the cancellation commits, before its refund.
    const cancelled = await form(`${page}/cancel`, {}).then(
      (r) => r.status,
      () => 'no answer',
    );
    const code = await exited(run.child);
    const killed = run.output().includes('killed after a cancellation committed');
    if (!killed) problems.push(`the service was not killed at the kill point (cancel answered ${cancelled}, exit ${code})`);
    await portsClosed({ api: ports.api, sandbox: ports.sandbox }, 30_000);

    // Started again and left alone: nobody cancels again.
    run = await start();
    const restarted = Date.now();
    let order: CancelRefundKillResult['order'];
    for (let waited = 0; waited < 120_000; waited += 2_000) {
      order = (await (await api('GET', `/api/v1/payments/payment-orders/${orderReference}`, paymentKey)).json()) as CancelRefundKillResult['order'];
      if (order?.status === 'refunded') break;
      await sleep(2_000);
    }
    const refundAfterRestartMs = order?.status === 'refunded' ? Date.now() - restarted : undefined;
    if (order?.status !== 'refunded') problems.push(`the order did not end refunded: ${JSON.stringify(order)}`);
    if (order?.refunds.length !== 1) problems.push(`not exactly one refund: ${JSON.stringify(order?.refunds)}`);
    if (order && order.amount_refunded_minor !== order.amount_minor) problems.push(`refunded ${order.amount_refunded_minor} of ${order.amount_minor}`);
    const after = await (await fetch(`${url}${page}`)).text();
    if (!after.includes('Booking cancelled')) problems.push('the booking page does not say "Booking cancelled"');
    return { problems, ...(order ? { order } : {}), page: after, killed, ...(refundAfterRestartMs !== undefined ? { refundAfterRestartMs } : {}) };
  } finally {
    await stopStackProcess(run.child, 'SIGKILL').catch(() => undefined);
    await Promise.all([dynamo.stop(), sqs.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
