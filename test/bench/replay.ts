/**
 * Replay of a backlog: 5,000 booking.confirmed deliveries that failed while the receiver was down
 * (written straight to the table as `failed`, off the due index), then one POST
 * /api/v1/deliveries/replay through the gateway with a key holding `deliveries:write`. The request
 * does bounded work (counts, marks what its budget allows, hands the rest to the sweeper); the
 * real sweeper function then runs back to back, as its schedule would, until every delivery
 * arrived. Figures: the answer time, and the rate from the answer to the last callback received.
 */
import { sweepOnce } from '../../infra/local/delivery-sweeper';
import { configureEndpoint, listDeliveries } from '../../shared/domain/callbacks/deliveries';
import { issueApiKey } from '../../shared/domain/clients';
import { writeFailedDeliveries } from '../support/failed-deliveries';
import { cpuRows, cpuSnapshot, cpuUse } from './lib/cpu';
import { startCallbackReceiver, waitUntil } from './lib/receiver';
import type { BenchStack } from './lib/stack';
import { ms, round } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const ANSWER_TARGET_MS = 5_000;
const RATE_TARGET = 150;

export async function replay(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const count = config.quick ? 1000 : 5000;
  const receiver = await startCallbackReceiver();
  try {
    const tenant = await stack.createTenant('Replay');
    await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
    const { key } = await issueApiKey({ clientId: tenant.clientId, kind: 'sync', scopes: ['deliveries:read', 'deliveries:write'] });
    const { ids, since, until } = await writeFailedDeliveries(tenant.clientId, count);
    config.log(`${count} failed deliveries written; replaying`);

    const cpuBefore = cpuSnapshot(stack.pids);
    const t0 = performance.now();
    const answer = await fetch(`${stack.url}/api/v1/deliveries/replay`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ since, until, status: ['failed'] }),
    });
    const answerMs = performance.now() - t0;
    const answered = (await answer.json()) as { queued?: number };
    config.log(`replay answered ${answer.status} in ${ms(answerMs)}: ${JSON.stringify(answered)}`);
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
        figure: `POST /api/v1/deliveries/replay of ${count} failed deliveries: answer time`,
        value: `${ms(answerMs)} (status ${answer.status}, queued ${answered.queued})`,
        baseline: 'before: `ops deliveries retry --client` sent them in the call, 76 deliveries/s (≈ 66 s for 5,000)',
        target: `< ${ANSWER_TARGET_MS / 1000} s, queued ${count}`,
        met: answer.status === 202 && answerMs < ANSWER_TARGET_MS && answered.queued === count,
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
    return {
      id: 'replay',
      title: 'Replay of a backlog',
      method:
        `${count} booking.confirmed deliveries of one hotel written as \`failed\` (off the due index), then one replay request through the local gateway ` +
        '(a sync key with `deliveries:write`, `status: [failed]`, the range of their creation). The request counts the matches on gsi4, marks as many due as ' +
        'its 2 s budget allows and puts them on the queue, and leaves the rest to the sweeper as a bulk-resend item; the real sweeper function then runs back to back, ' +
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
