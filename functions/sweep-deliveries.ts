/**
 * Scheduled every minute: puts on the queue every delivery whose time on the due index has come:
 * due but not queued (its enqueue failed after the booking committed, or its retry delay is
 * longer than SQS allows), or queued and its message not received in time (lost, purged), until
 * none is left or the run nears its timeout, and publishes the age of the oldest one.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { SWEEPER_METRICS } from '../infra/constructs/monitoring-metrics';
import { sweepDueDeliveries } from '../shared/domain/callbacks/sweep';
import { logger, metrics } from '../shared/observability';

/** No page starts later than this before the timeout: a page's calls, SDK retries included, fit in it. */
const STOP_BEFORE_TIMEOUT_MS = 15_000;

export const handler = async (_event: unknown, context: Context) => {
  const result = await sweepDueDeliveries({ stopAt: Date.now() + context.getRemainingTimeInMillis() - STOP_BEFORE_TIMEOUT_MS });
  // Feeds the backlog alarm: 0 when nothing was due.
  metrics.addMetric(SWEEPER_METRICS.oldestDueAgeSeconds, MetricUnit.Seconds, result.oldestDueAgeSeconds);
  metrics.publishStoredMetrics();
  if (result.enqueued || result.notEnqueued || !result.drained) logger.info('swept due deliveries onto the queue', { ...result });
  // Partitions that could not be read make the run fail, for the sweeper's error alarm.
  if (result.failedPartitions) throw new Error(`${result.failedPartitions} due-index partitions could not be read`);
  return result;
};
