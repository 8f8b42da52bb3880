/**
 * Callback sender (SQS). Delivery lands with the callbacks issue; nothing enqueues yet, and a
 * message that did arrive fails, so it is retried and then kept in the dead-letter queue.
 */
import type { SQSEvent } from 'aws-lambda';
import { logger } from '../shared/observability';

export const handler = async (event: SQSEvent) => {
  logger.warn('callback delivery is not available yet', { messages: event.Records.length });
  return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
};
