/**
 * Callback sender (SQS, partial batch responses). Each message names one delivery; the attempt
 * itself decides whether to send (duplicates and early messages are skipped). A message that
 * keeps failing marks its delivery failed before it moves to the dead-letter queue.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { attemptDelivery, giveUp } from '../shared/domain/callbacks/deliveries';
import { logger } from '../shared/observability';

const processor = new BatchProcessor(EventType.SQS);

async function processRecord(record: SQSRecord): Promise<void> {
  const { delivery_id: deliveryId } = JSON.parse(record.body) as { delivery_id?: string };
  if (!deliveryId) {
    logger.error('message without a delivery id', { message_id: record.messageId });
    return;
  }
  try {
    const status = await attemptDelivery(deliveryId);
    logger.info('delivery attempt', { delivery_id: deliveryId, status });
  } catch (error) {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount);
    if (await giveUp(deliveryId, receiveCount).catch(() => false)) {
      logger.error('delivery failed for good; message goes to the dead-letter queue', { delivery_id: deliveryId, error: error as Error });
    }
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, processRecord, processor, { context });
