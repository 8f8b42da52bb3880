/**
 * Callback sender (SQS, partial batch responses). Each message names one delivery; the attempt
 * itself decides whether to send (duplicates and early messages are skipped). A message that
 * keeps failing marks its delivery failed before it moves to the dead-letter queue.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import { SqsRecordSchema } from '@aws-lambda-powertools/parser/schemas';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { attemptDelivery, giveUp } from '../shared/domain/callbacks/deliveries';
import { DELIVERY_METRICS } from '../infra/constructs/monitoring-metrics';
import { logger, metrics } from '../shared/observability';

const METRIC_OF = {
  delivered: DELIVERY_METRICS.delivered,
  retrying: DELIVERY_METRICS.retrying,
  failed: DELIVERY_METRICS.failed,
  needs_review: DELIVERY_METRICS.needsReview,
} as const;

const processor = new BatchProcessor(EventType.SQS);

/** A callback message: an SQS record whose body names one delivery. */
const CallbackMessage = SqsRecordSchema.extend({ body: JSONStringified(z.object({ delivery_id: z.uuid() })) });

async function processRecord(record: SQSRecord): Promise<void> {
  const message = CallbackMessage.safeParse(record);
  if (!message.success) {
    // It names no delivery, so no retry can make it succeed: dropped, and logged.
    logger.error('message without a delivery id', { message_id: record.messageId });
    return;
  }
  const deliveryId = message.data.body.delivery_id;
  try {
    const status = await attemptDelivery(deliveryId);
    logger.info('delivery attempt', { delivery_id: deliveryId, status });
    if (status in METRIC_OF) metrics.addMetric(METRIC_OF[status as keyof typeof METRIC_OF], MetricUnit.Count, 1);
  } catch (error) {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount);
    if (await giveUp(deliveryId, receiveCount).catch(() => false)) {
      metrics.addMetric(DELIVERY_METRICS.failed, MetricUnit.Count, 1);
      logger.error('delivery failed for good; message goes to the dead-letter queue', { delivery_id: deliveryId, error: error as Error });
    }
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context) => {
  try {
    return await processPartialResponse(event, processRecord, processor, { context });
  } finally {
    // Delivery outcomes feed the CallbackFailures and CallbacksNeedReview alarms.
    metrics.publishStoredMetrics();
  }
};
