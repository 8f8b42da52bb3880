/**
 * `deliveries ...`: a client's callback and webhook deliveries listed and shown with every
 * attempt, and sent again by an operator (recorded on the client's Audit page as the operator
 * CLI, like the dashboard's retries).
 */
import { DELIVERY_STATUSES, RETRYABLE_DELIVERY_STATUSES, type DeliveryStatus, type RetryableDeliveryStatus } from '../../schemas/deliveries';
import type { DeliveryRecord } from '../../store/delivery-store';
import { type Command, defineCommand, UsageError } from '../cli';

const clients = () => import('../../domain/clients');
const callbacks = () => import('../../domain/callbacks/deliveries');
const retries = () => import('../../domain/callbacks/operator-retries');

/** What an operator sees of a delivery: everything but the payload's bytes. */
function deliveryView(record: DeliveryRecord) {
  return {
    delivery_id: record.delivery_id,
    client_id: record.client_id,
    event: record.event,
    status: record.status,
    attempts: record.attempts,
    next_attempt_at: record.status === 'pending' || record.status === 'retrying' ? record.due_at : null,
    booking_id: record.booking_id ?? null,
    payment_order_id: record.payment_order_id ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function renderDelivery(d: ReturnType<typeof deliveryView>): string {
  return [
    `${d.delivery_id}  ${d.event}  ${d.status}  ${d.attempts.length} attempt(s)`,
    ...d.attempts.map((a) => `  ${a.at}  ${a.status_code ?? '---'}  ${String(a.duration_ms).padStart(5)} ms  ${a.error ?? ''}`),
    ...(d.next_attempt_at ? [`  next attempt at ${d.next_attempt_at}`] : []),
  ].join('\n');
}

export const deliveryCommands: readonly Command[] = [
  defineCommand({
    name: 'deliveries list',
    summary: "List a client's callback and webhook deliveries with every attempt",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      status: { value: 'S', help: 'Only this status', choices: DELIVERY_STATUSES },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const deliveries = await (await callbacks()).listDeliveries(flags.client, flags.status as DeliveryStatus | undefined);
      return { deliveries: deliveries.map(deliveryView) };
    },
    render: ({ deliveries }) => (deliveries.length ? deliveries.map(renderDelivery).join('\n\n') : 'No deliveries.'),
  }),

  defineCommand({
    name: 'deliveries show',
    summary: 'Show one delivery with every attempt',
    flags: {},
    positionals: [{ name: 'DELIVERY_ID', help: 'The delivery id (X-Service-Delivery)' }],
    async run({ args }) {
      return deliveryView(await (await callbacks()).showDelivery(args.DELIVERY_ID));
    },
    render: renderDelivery,
  }),

  defineCommand({
    name: 'deliveries retry',
    summary: 'Send a failed or needs_review delivery again (same delivery id), or all of a client\'s with --client and --status',
    flags: {
      client: { value: 'ID', help: 'With --status: retry all of this client\'s deliveries in that status' },
      status: { value: 'S', help: 'failed or needs_review', choices: RETRYABLE_DELIVERY_STATUSES },
    },
    positionals: [{ name: 'DELIVERY_ID', help: 'One delivery to retry', optional: true }],
    async run({ args, flags }) {
      const [domain, use] = await Promise.all([callbacks(), retries()]);
      if (args.DELIVERY_ID && !flags.client && !flags.status) {
        const delivery = await domain.showDelivery(args.DELIVERY_ID);
        return { retried: [deliveryView(await use.retryOneDelivery({ delivery, actor: use.OPERATOR_CLI }))] };
      }
      if (!args.DELIVERY_ID && flags.client && flags.status) {
        await (await clients()).requireClient(flags.client);
        const status = flags.status as RetryableDeliveryStatus;
        const retried = await use.retryFailedDeliveries({ clientId: flags.client, actor: use.OPERATOR_CLI, statuses: [status] });
        // Bounded: the sweeper sends them (and marks any the call had no time for).
        return { queued: retried[status] };
      }
      throw new UsageError('give either DELIVERY_ID, or --client and --status');
    },
    render: (result) =>
      result.retried
        ? `Queued again: ${result.retried.map((d) => d.delivery_id).join(', ')}`
        : result.queued
          ? `${result.queued} queued again; the sweeper sends them.`
          : 'Nothing to retry.',
  }),
];
