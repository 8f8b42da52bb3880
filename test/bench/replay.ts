/**
 * Replay of a backlog: 5,000 booking.confirmed deliveries that failed while the receiver was down
 * (written straight to the table as `failed`, off the due index), then one request to send them
 * again: a receiver's POST /api/v1/deliveries/replay through the gateway with a key holding
 * `deliveries:write` (`replay`), or an operator's `npm run ops -- deliveries retry --client ID
 * --status failed` (`retry-all`: the same bulk resend over the client's every endpoint, gsi2).
 * The request does bounded work (counts, marks what its budget allows, at most 1,000, hands the
 * rest to the sweeper); the real sweeper function then runs back to back, as its schedule would,
 * until every delivery arrived. Figures: the answer time, and the rate from the answer to the last
 * callback received.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweepOnce } from '../../infra/local/delivery-sweeper';
import { configureEndpoint, listDeliveries } from '../../shared/domain/callbacks/deliveries';
import { issueApiKey } from '../../shared/domain/clients';
import { DashboardClient, OPERATOR_PASSWORD } from '../support/dashboard-client';
import { writeFailedDeliveries } from '../support/failed-deliveries';
import { cpuRows, cpuSnapshot, cpuUse } from './lib/cpu';
import { startCallbackReceiver, waitUntil } from './lib/receiver';
import type { BenchStack } from './lib/stack';
import { ms, round } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const ANSWER_TARGET_MS = 5_000;
const RATE_TARGET = 150;

type Way = 'replay' | 'retry-all' | 'dashboard-retry-all';

/** What the asking answered: a status (HTTP, or the CLI's exit code) and the count queued; the time, where asking had steps before it (signing in). */
interface Answer {
  ok: boolean;
  status: string;
  queued?: number;
  answerMs?: number;
}

/** A receiver's replay request through the gateway. */
async function askReplay(stack: BenchStack, clientId: string, range: { since: string; until: string }): Promise<Answer> {
  const { key } = await issueApiKey({ clientId, kind: 'sync', scopes: ['deliveries:read', 'deliveries:write'] });
  const answer = await fetch(`${stack.url}/api/v1/deliveries/replay`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...range, status: ['failed'] }),
  });
  const body = (await answer.json()) as { queued?: number };
  return { ok: answer.status === 202, status: `status ${answer.status}`, queued: body.queued };
}

/** An operator's `npm run ops -- deliveries retry --client ID --status failed --json`, as a process of its own (tsx, as npm runs it). */
function askRetryAll(config: BenchConfig, stack: BenchStack, clientId: string): Promise<Answer> {
  const stackFile = join(config.workDir, 'retry-all-stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.serving.info));
  const { AWS_LAMBDA_MAX_CONCURRENCY: _, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/ops.ts', 'deliveries', 'retry', '--client', clientId, '--status', 'failed', '--json'], {
      env: { ...env, OPS_STACK_FILE: stackFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ok: code === 0, status: `exit ${code}`, queued: code === 0 ? (JSON.parse(stdout) as { queued: number }).queued : undefined }));
  });
}

/** A staff operator signed in to the dashboard, pressing "Retry all failed and needs review" (form POST, then the page it redirects to). */
async function askDashboard(stack: BenchStack, clientId: string): Promise<Answer> {
  const { createOperator } = await import('../../shared/domain/operators');
  const email = `bench-${Date.now()}@hotel.example`;
  await createOperator({ clientId, email, role: 'staff', password: OPERATOR_PASSWORD });
  const staff = new DashboardClient(stack, email);
  const signedIn = await staff.signIn();
  if (signedIn.status !== 200) throw new Error(`sign-in answered ${signedIn.status}`);
  const t0 = performance.now();
  const page = await staff.submit('/dashboard/deliveries/retry-failed');
  const answerMs = performance.now() - t0;
  const queued = /([\d,]+) deliver(?:y|ies) queued again/.exec(page.text)?.[1];
  return { ok: page.status === 200, status: `status ${page.status}`, queued: queued === undefined ? undefined : Number(queued.replace(/,/g, '')), answerMs };
}

const WAYS: Record<Way, { title: string; asked: string; baseline?: string }> = {
  replay: {
    title: 'Replay of a backlog',
    asked: 'POST /api/v1/deliveries/replay',
    baseline: 'before: `ops deliveries retry --client` sent them in the call, 76 deliveries/s (≈ 66 s for 5,000)',
  },
  'retry-all': { title: 'Retry all failed (operator CLI)', asked: '`npm run ops -- deliveries retry --client ID --status failed` (a process of its own)' },
  'dashboard-retry-all': { title: 'Retry all failed (dashboard)', asked: 'Dashboard "Retry all failed and needs review" (POST, then the page it redirects to)' },
};

export const replay = (config: BenchConfig, stack: BenchStack) => bulkResend(config, stack, 'replay');
export const retryAll = (config: BenchConfig, stack: BenchStack) => bulkResend(config, stack, 'retry-all');
export const dashboardRetryAll = (config: BenchConfig, stack: BenchStack) => bulkResend(config, stack, 'dashboard-retry-all');

async function bulkResend(config: BenchConfig, stack: BenchStack, way: Way): Promise<Section> {
  const started = performance.now();
  const count = config.quick ? 1000 : 5000;
  const receiver = await startCallbackReceiver();
  const { title, asked, baseline } = WAYS[way];
  try {
    const tenant = await stack.createTenant(title);
    await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
    // Created in the minutes before: "retry all" looks back from now.
    const { ids, since, until } = await writeFailedDeliveries(tenant.clientId, count, { since: new Date(Date.now() - 60_000) });
    config.log(`${count} failed deliveries written; asking for them again (${way})`);

    const cpuBefore = cpuSnapshot(stack.pids);
    const t0 = performance.now();
    const answered =
      way === 'replay'
        ? await askReplay(stack, tenant.clientId, { since, until })
        : way === 'retry-all'
          ? await askRetryAll(config, stack, tenant.clientId)
          : await askDashboard(stack, tenant.clientId);
    const answerMs = answered.answerMs ?? performance.now() - t0;
    config.log(`${way} answered ${answered.status} in ${ms(answerMs)}: queued ${answered.queued}`);
    // The sweeper's schedule, back to back: each run carries on the replay, then sends what is due.
    let runs = 0;
    const sweeping = (async () => {
      while (runs < 30 && ![...ids].every((id) => receiver.arrivals.has(id))) {
        runs++;
        await sweepOnce();
      }
    })();
    const progress = setInterval(() => config.log(`arrived ${receiver.arrivals.size}, sweeper runs ${runs}`), 5000);
    await waitUntil(`${count} deliveries`, () => [...ids].every((id) => receiver.arrivals.has(id)), 300_000, 100);
    const cpu = cpuUse(cpuBefore, cpuSnapshot(stack.pids), count);
    await sweeping;
    clearInterval(progress);
    const drainMs = receiver.lastAt() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    let delivered = 0;
    let statuses: Record<string, number> = {};
    await waitUntil('every delivery recorded as delivered', async () => {
      statuses = {};
      for (const d of await listDeliveries(tenant.clientId)) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
      delivered = statuses.delivered ?? 0;
      return delivered === count;
    }, 60_000, 1000).catch((error) => config.log(`${(error as Error).message}: ${JSON.stringify(statuses)}`));
    const duplicates = [...receiver.arrivals.values()].reduce((n, list) => n + list.length - 1, 0);
    const perSecond = count / (drainMs / 1000);
    const allGood = answered.queued === count && delivered === count && duplicates === 0;
    const rows: Row[] = [
      {
        figure: `${asked} of ${count} failed deliveries: answer time`,
        value: `${ms(answerMs)} (${answered.status}, queued ${answered.queued})`,
        ...(baseline ? { baseline } : {}),
        target: `< ${ANSWER_TARGET_MS / 1000} s, queued ${count}`,
        met: answered.ok && answerMs < ANSWER_TARGET_MS && answered.queued === count,
      },
      {
        figure: 'Answer → last callback received (sweeper runs back to back)',
        value: `${ms(drainMs)} (${round(perSecond, 1)} deliveries/s, ${runs} sweeper runs)`,
        target: `≥ ${RATE_TARGET}/s`,
        met: perSecond >= RATE_TARGET && allGood,
      },
      ...cpuRows('CPU from the request to the last callback (/proc)', cpu),
      {
        figure: 'Deliveries: recorded delivered / duplicates',
        value: `${delivered} of ${count} / ${duplicates} (statuses ${JSON.stringify(statuses)})`,
        target: `${count} / 0`,
        met: allGood,
      },
    ];
    const request = {
      replay: 'one replay request through the local gateway (a sync key with `deliveries:write`, `status: [failed]`, the range of their creation). The request counts the matches on gsi4',
      'retry-all':
        'one `npm run ops -- deliveries retry --client ID --status failed --json` (tsx, a process of its own: its start is in the answer time). The call counts the matches on gsi2 (all the client\'s deliveries, the last 30 days)',
      'dashboard-retry-all':
        'a staff operator, signed in on cognito-local, pressing "Retry all failed and needs review" on the dashboard (the form POST and the page it redirects to; the sign-in before the clock starts). The request counts the matches on gsi2 (all the client\'s deliveries, the last 30 days, by status)',
    }[way];
    return {
      id: way,
      title,
      method:
        `${count} booking.confirmed deliveries of one hotel written as \`failed\` (off the due index), then ${request}, marks as many due as ` +
        'its 2 s budget allows (at most 1,000) and puts them on the queue, and leaves the rest to the sweeper as a bulk-resend item; the real sweeper function then runs back to back, ' +
        'as its schedule invokes it, marking and queueing the rest; the local poller runs the sender against a loopback receiver answering 200.',
      rows,
      notes: [],
      data: { deliveries: count, answer_ms: Math.round(answerMs), queued: answered.queued, drain_ms: Math.round(drainMs), per_second: round(perSecond, 1), sweeper_runs: runs, duplicates, cpu },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await receiver.close();
  }
}
