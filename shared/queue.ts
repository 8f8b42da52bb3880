/** The callback queue: one message per delivery attempt, carrying only the delivery id. */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { callbackQueueUrl, config } from './config';
import { serviceClient } from './observability';

type SqsModule = typeof import('@aws-sdk/client-sqs');

let client: Promise<{ sqs: SQSClient; SendMessageCommand: SqsModule['SendMessageCommand']; SendMessageBatchCommand: SqsModule['SendMessageBatchCommand'] }> | undefined;

/**
 * The SQS client, imported on first use: most functions that can reach this module (payment
 * order creation, for one) never enqueue, and should not load the SDK client at cold start.
 */
function sqs() {
  client ??= import('@aws-sdk/client-sqs').then(({ SQSClient, SendMessageCommand, SendMessageBatchCommand }) => ({
    // Traced for X-Ray (a no-op when tracing is off). Emulator queue URLs use a *.localhost
    // host: an explicit endpoint keeps requests on it.
    sqs: serviceClient(
      new SQSClient({ endpoint: config().sqsEndpoint, maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } }),
    ),
    SendMessageCommand,
    SendMessageBatchCommand,
  }));
  return client;
}

/** SQS delays a message by at most 15 minutes. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** SendMessageBatch takes at most 10 messages. */
export const ENQUEUE_BATCH_SIZE = 10;

const message = (deliveryId: string, delaySeconds: number) => ({
  MessageBody: JSON.stringify({ delivery_id: deliveryId }),
  DelaySeconds: Math.min(Math.max(0, Math.round(delaySeconds)), MAX_QUEUE_DELAY_SECONDS),
});

export async function enqueueDelivery(deliveryId: string, delaySeconds = 0): Promise<void> {
  const { sqs: queue, SendMessageCommand } = await sqs();
  await queue.send(new SendMessageCommand({ QueueUrl: callbackQueueUrl(), ...message(deliveryId, delaySeconds) }));
}

/**
 * Puts up to 10 deliveries on the queue in one call. Returns the ids SQS accepted; the others
 * (refused entries, or all of them when the call fails) with the reason.
 */
export async function enqueueDeliveries(
  entries: readonly { deliveryId: string; delaySeconds: number }[],
): Promise<{ enqueued: string[]; failed: { deliveryId: string; error: string }[] }> {
  if (entries.length > ENQUEUE_BATCH_SIZE) throw new Error(`SendMessageBatch takes at most ${ENQUEUE_BATCH_SIZE} messages`);
  if (!entries.length) return { enqueued: [], failed: [] };
  try {
    const { sqs: queue, SendMessageBatchCommand } = await sqs();
    const { Successful = [], Failed = [] } = await queue.send(
      new SendMessageBatchCommand({
        QueueUrl: callbackQueueUrl(),
        Entries: entries.map((entry, i) => ({ Id: String(i), ...message(entry.deliveryId, entry.delaySeconds) })),
      }),
    );
    return {
      enqueued: Successful.map((s) => entries[Number(s.Id)]!.deliveryId),
      failed: Failed.map((f) => ({ deliveryId: entries[Number(f.Id)]!.deliveryId, error: `${f.Code}: ${f.Message ?? ''}` })),
    };
  } catch (error) {
    return { enqueued: [], failed: entries.map((e) => ({ deliveryId: e.deliveryId, error: (error as Error).message })) };
  }
}
