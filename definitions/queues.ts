/**
 * The callback queue and its dead-letter queue, described once for the CDK stack and the
 * local stack (whose poller applies the same batch size, concurrency and redrive, and its own
 * visibility timeout: localVisibilityTimeoutSeconds).
 */
export const callbackQueue = {
  name: 'callbacks',
  deadLetterName: 'callbacks-dlq',
  /** Six times the sender's 60 s timeout, as AWS advises for SQS event sources. */
  visibilityTimeoutSeconds: 360,
  /**
   * The local poller's visibility timeout, which it hands to the functions as
   * CALLBACK_VISIBILITY_TIMEOUT_SECONDS. Its sender runs in the poller's process and takes
   * seconds, not Lambda's 60 s timeout; and the sweeper sends a delivery whose message is lost
   * again one visibility timeout and a grace window after the message was due
   * (shared/domain/callbacks/resend.ts), so after a restart, which loses the emulator's
   * messages, deliveries go out within a minute or so instead of seven.
   */
  localVisibilityTimeoutSeconds: 30,
  /** A message is moved to the DLQ after this many receives without success. */
  maxReceiveCount: 8,
  batchSize: 10,
  maxBatchingWindowSeconds: 1,
  /**
   * Batches the sender runs at once (the event source's maximum concurrency, 2 to 1,000:
   * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html). A batch's records
   * are attempted in parallel, so at most 100 POSTs reach hotels' PMS servers at once, whatever
   * the backlog; with healthy receivers that drains hundreds a second. It keeps the sender from
   * taking the account's concurrency from the API; and unlike reserved concurrency, Lambda stops
   * polling at the bound instead of receiving messages it is throttled on, whose receives would
   * count towards the dead-letter queue.
   */
  maxConcurrency: 10,
  retentionDays: 14,
} as const;
