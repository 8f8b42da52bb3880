/**
 * Scheduled every minute: puts on the queue every delivery that is due but not queued (its
 * enqueue failed after the booking committed, or its retry delay is longer than SQS allows).
 */
import { sweepDueDeliveries } from '../shared/domain/callbacks/deliveries';
import { logger } from '../shared/observability';

export const handler = async () => {
  const enqueued = await sweepDueDeliveries();
  if (enqueued) logger.info('swept due deliveries onto the queue', { enqueued });
  return { enqueued };
};
