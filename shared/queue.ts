/** The callback queue: one message per delivery attempt, carrying only the delivery id. */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { callbackQueueUrl, sqsEndpoint } from './config';

let client: SQSClient | undefined;

function sqs(): SQSClient {
  // Emulator queue URLs use a *.localhost host: an explicit endpoint keeps requests on it.
  client ??= new SQSClient({ endpoint: sqsEndpoint(), maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } });
  return client;
}

/** SQS delays a message by at most 15 minutes. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export async function enqueueDelivery(deliveryId: string, delaySeconds = 0): Promise<void> {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: callbackQueueUrl(),
      MessageBody: JSON.stringify({ delivery_id: deliveryId }),
      DelaySeconds: Math.min(Math.max(0, Math.round(delaySeconds)), MAX_QUEUE_DELAY_SECONDS),
    }),
  );
}
