/**
 * Scheduled every minute: puts on the queue every delivery whose time on the due index has come:
 * due but not queued (its enqueue failed after the booking committed, or its retry delay is
 * longer than SQS allows), or queued and its message not received in time (lost, purged), until
 * none is left or the run nears its timeout, and publishes the age of the oldest one. Beside it,
 * tries again every e-mail to a guest whose send failed or never happened (a stage that sends
 * e-mail only). Before the due deliveries, carries on the bulk resends (a replay, "retry all")
 * whose request had no time to mark every delivery due. Last, drives the refunds nobody finished
 * (a cancellation whose process stopped after its commit, a provider that did not answer).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { SWEEPER_METRICS } from '../definitions/metrics';
import { continueBulkResends } from '../shared/domain/callbacks/bulk-resend';
import { sweepDueDeliveries } from '../shared/domain/callbacks/sweep';
import { emailEnabled, sweepDueEmails } from '../shared/domain/guest-email/outbox';
import { driveDueRefunds } from '../shared/domain/payments/refunds';
import { logger, metrics, tracingAfterFirstResponse } from '../shared/observability';

/** No page starts later than this before the timeout: a page's calls, SDK retries included, fit in it. */
const STOP_BEFORE_TIMEOUT_MS = 15_000;
/** At most this much of a run marks the deliveries of bulk resends (replays, "retry all"); the next run goes on. */
const BULK_RESEND_SHARE_MS = 20_000;

export const handler = tracingAfterFirstResponse(async (_event: unknown, context: Context) => {
  logger.addContext(context);
  const stopAt = Date.now() + context.getRemainingTimeInMillis() - STOP_BEFORE_TIMEOUT_MS;
  const emailSweep = emailEnabled() ? sweepEmails(stopAt) : undefined;
  // Bulk resends first (bounded, so due deliveries are never starved): what they mark is due now.
  const bulk = await continueBulkResends({ stopAt: Math.min(stopAt, Date.now() + BULK_RESEND_SHARE_MS) }).catch((error) => {
    logger.error('bulk resends could not be continued; the next run retries', { error: error as Error });
    // Feeds the BulkResendNotContinued alarm: an error a run cannot get past repeats every run.
    metrics.addMetric(SWEEPER_METRICS.bulkResendNotContinued, MetricUnit.Count, 1);
    return { marked: 0, jobsLeft: true };
  });
  if (bulk.marked) logger.info('marked deliveries of bulk resends due', { ...bulk });
  const [result, emails] = await Promise.all([sweepDueDeliveries({ stopAt }), emailSweep]);
  // Feeds the backlog alarm: 0 when nothing was due.
  metrics.addMetric(SWEEPER_METRICS.oldestDueAgeSeconds, MetricUnit.Seconds, result.oldestDueAgeSeconds);
  metrics.publishStoredMetrics();
  if (result.enqueued || result.notEnqueued || !result.drained) logger.info('swept due deliveries onto the queue', { ...result });
  if (emails?.due) logger.info('tried due e-mails to guests again', { ...emails });
  const refunds = await driveDueRefunds(new Date(), { stopAt }).catch((error) => logger.error('the due refunds could not be read; the next run retries', { error: error as Error }));
  if (refunds?.driven || refunds?.failed) logger.info('drove due refunds', { ...refunds });
  // Partitions that could not be read make the run fail, for the sweeper's error alarm.
  if (result.failedPartitions) throw new Error(`${result.failedPartitions} due-index partitions could not be read`);
  if (emails === null) throw new Error('the due e-mails could not be read');
  return emails ? { ...result, emails } : result;
});

/** The e-mail sweep; null when its index could not be read (logged; the deliveries' sweep goes on). */
async function sweepEmails(stopAt: number) {
  try {
    return await sweepDueEmails({ stopAt });
  } catch (error) {
    logger.error('the due e-mails could not be read; the next run retries', { error: error as Error });
    return null;
  }
}
