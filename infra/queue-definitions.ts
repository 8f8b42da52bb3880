/**
 * The callback queue and its dead-letter queue, described once for the CDK stack and the
 * local stack (whose poller applies the same batch size, visibility timeout and redrive).
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
  retentionDays: 14,
} as const;
