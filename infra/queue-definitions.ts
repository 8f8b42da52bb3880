/**
 * The callback queue and its dead-letter queue, described once for the CDK stack and the
 * local stack (whose poller applies the same batch size, concurrency, visibility timeout and
 * redrive).
 */
export const callbackQueue = {
  name: 'callbacks',
  deadLetterName: 'callbacks-dlq',
  /** Six times the sender's 60 s timeout, as AWS advises for SQS event sources. */
  visibilityTimeoutSeconds: 360,
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
