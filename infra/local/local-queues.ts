/** The local callback queue and its dead-letter queue, from the stack's definition (definitions/queues.ts). */
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { callbackQueue } from '../../definitions/queues';
import { sqsClient } from './emulators';

export interface LocalQueues {
  callbackQueueUrl: string;
  callbackQueueArn: string;
  callbackDlqUrl: string;
  callbackDlqArn: string;
}

/** Creates the callback queue and its DLQ with the stack's settings. */
export async function ensureQueues(endpoint: string, prefix: string): Promise<LocalQueues> {
  const client = sqsClient(endpoint);
  try {
    const dlq = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${callbackQueue.deadLetterName}`,
        Attributes: { MessageRetentionPeriod: String(callbackQueue.retentionDays * 86400) },
      }),
    );
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const dlqArn = Attributes!.QueueArn!;
    const main = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${callbackQueue.name}`,
        Attributes: {
          VisibilityTimeout: String(callbackQueue.visibilityTimeoutSeconds),
          MessageRetentionPeriod: String(callbackQueue.retentionDays * 86400),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: callbackQueue.maxReceiveCount }),
        },
      }),
    );
    const mainAttributes = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: main.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    return {
      callbackQueueUrl: main.QueueUrl!,
      callbackQueueArn: mainAttributes.Attributes!.QueueArn!,
      callbackDlqUrl: dlq.QueueUrl!,
      callbackDlqArn: dlqArn,
    };
  } finally {
    client.destroy();
  }
}
