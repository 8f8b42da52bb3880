/**
 * Callback sender (SQS, partial batch responses). Each message names one delivery; the attempt
 * itself decides whether to send (duplicates and early messages are skipped). A message that
 * keeps failing marks its delivery failed before it moves to the dead-letter queue.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { attemptDelivery, giveUp, type SendTargets } from '../shared/domain/callbacks/deliveries';
import { DELIVERY_METRICS } from '../definitions/metrics';
import { logger, metrics, tracingAfterFirstResponse } from '../shared/observability';
import { callbackMessage } from '../shared/schemas/callbacks';

const METRIC_OF = {
  delivered: DELIVERY_METRICS.delivered,
  retrying: DELIVERY_METRICS.retrying,
  failed: DELIVERY_METRICS.failed,
  needs_review: DELIVERY_METRICS.needsReview,
} as const;

async function processRecord(record: SQSRecord, targets: SendTargets): Promise<void> {
  const message = callbackMessage.safeParse(record);
  if (!message.success) {
    // It names no delivery, so no retry can make it succeed: dropped, and logged.
    logger.error('message without a delivery id', { message_id: record.messageId });
    return;
  }
  const deliveryId = message.data.body.delivery_id;
  try {
    const status = await attemptDelivery(deliveryId, new Date(), targets);
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

export const handler = tracingAfterFirstResponse(async (event: SQSEvent, context: Context) => {
  logger.addContext(context);
  try {
    // A processor and endpoint lookups per invocation: the processor holds the batch's state, and
    // the local stack runs several batches at once in one process (Lambda runs one per instance).
    const targets: SendTargets = new Map();
    return await processPartialResponse(event, (record: SQSRecord) => processRecord(record, targets), new BatchProcessor(EventType.SQS), { context });
  } finally {
    // Delivery outcomes feed the CallbackFailures and CallbacksNeedReview alarms. A batch of
    // skipped duplicates has none (publishing nothing would only log a warning).
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  }
});
