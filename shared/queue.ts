/** The callback queue: one message per delivery attempt, carrying only the delivery id. */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { callbackQueueUrl, config } from './config';

let client: Promise<{ sqs: SQSClient; SendMessageCommand: typeof import('@aws-sdk/client-sqs').SendMessageCommand }> | undefined;

/**
 * The SQS client, imported on first use: most functions that can reach this module (payment
 * order creation, for one) never enqueue, and should not load the SDK client at cold start.
 */
function sqs() {
  client ??= import('@aws-sdk/client-sqs').then(({ SQSClient, SendMessageCommand }) => ({
    // Emulator queue URLs use a *.localhost host: an explicit endpoint keeps requests on it.
    sqs: new SQSClient({ endpoint: config().sqsEndpoint, maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } }),
    SendMessageCommand,
  }));
  return client;
}

/** SQS delays a message by at most 15 minutes. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export async function enqueueDelivery(deliveryId: string, delaySeconds = 0): Promise<void> {
  const { sqs: queue, SendMessageCommand } = await sqs();
  await queue.send(
    new SendMessageCommand({
      QueueUrl: callbackQueueUrl(),
      MessageBody: JSON.stringify({ delivery_id: deliveryId }),
      DelaySeconds: Math.min(Math.max(0, Math.round(delaySeconds)), MAX_QUEUE_DELAY_SECONDS),
    }),
  );
}
