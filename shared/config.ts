/**
 * The one place that reads configuration. Functions read it at init and fail loudly
 * when something they need is missing.
 */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function tableName(): string {
  return requireEnv('TABLE_NAME');
}

export function callbackQueueUrl(): string {
  return requireEnv('CALLBACK_QUEUE_URL');
}

/** Explicit SQS endpoint for emulators (their queue URLs use a *.localhost host). */
export function sqsEndpoint(): string | undefined {
  return process.env.SQS_ENDPOINT || undefined;
}

/** True in the local stack and tests: relaxes https-only return URLs. */
export function isLocalStage(): boolean {
  return (process.env.STAGE ?? 'local') === 'local';
}

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_SYNC_ITEMS = 500;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
