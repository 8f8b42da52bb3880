/**
 * What the local stack is and what its functions see, as plain data: `npm start` writes it to
 * stack.json, and the operator CLI (shared/ops/target.ts) reads it back to reach the same table.
 */
import { callbackQueue } from './queues';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from './service-defaults';

/** Emulators accept any credentials; fixed ones keep the SDK from searching for real ones. */
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export const DEFAULT_TABLE_NAME = 'hotel-integration';

/** The local stack's sender of e-mails to guests (a deployed stage's is its `-c senderEmail`). */
export const LOCAL_SENDER_EMAIL = 'bookings@hotel-integration.example';

export interface LocalStackInfo {
  apiUrl: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  callbackQueueUrl: string;
  callbackDlqUrl: string;
  region: string;
  /** Path of the key file that seals signing secrets (the stack uses KMS): the path, never the key. */
  secretsKeyFile: string;
  /** Path of the key file order references are derived with (the stack: a Secrets Manager secret). */
  orderReferenceKeyFile: string;
  /** The sandbox payment provider (always on for `npm start`; tests may switch it off). */
  sandboxPayments?: boolean;
  /** The sandbox checkout's own origin (SANDBOX_PORT), where the sandbox runs. */
  sandboxUrl?: string;
  /** cognito-local and the operators' pool in it (absent in a stack.json of an older version). */
  cognitoEndpoint?: string;
  userPoolId?: string;
  userPoolClientId?: string;
  cognitoIssuer?: string;
  /** The SES v2 emulator (its `GET /store` lists the e-mails sent) and the sender; without them, no e-mail. */
  sesEndpoint?: string;
  senderEmail?: string;
}

/** The operators' pool on cognito-local, as the local stack passes it on. */
export interface LocalCognito {
  endpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  issuer: string;
}

/** Environment the functions see, as the stack sets it in Lambda (plus emulator endpoints). */
export function functionEnvironment(info: Omit<LocalStackInfo, 'apiUrl'> & { apiUrl?: string }): Record<string, string> {
  return {
    STAGE: 'local',
    TABLE_NAME: info.tableName,
    CALLBACK_QUEUE_URL: info.callbackQueueUrl,
    AWS_ENDPOINT_URL_DYNAMODB: info.dynamodbEndpoint,
    SQS_ENDPOINT: info.sqsEndpoint,
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    SECRETS_KEY_FILE: info.secretsKeyFile,
    POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
    CALLBACK_RETRY_DELAYS_SECONDS: process.env.CALLBACK_RETRY_DELAYS_SECONDS ?? DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS.join(','),
    // The local poller's, which the sender's resend-after times are reckoned from.
    CALLBACK_VISIBILITY_TIMEOUT_SECONDS: String(callbackQueue.localVisibilityTimeoutSeconds),
    SUPPORTED_CURRENCIES: process.env.SUPPORTED_CURRENCIES ?? DEFAULT_SUPPORTED_CURRENCIES.join(','),
    // Nameservers for callback hosts (tests: a local responder); unset: the system's, as in Lambda.
    ...(process.env.DNS_SERVERS ? { DNS_SERVERS: process.env.DNS_SERVERS } : {}),
    SANDBOX_PAYMENTS: String(info.sandboxPayments ?? true),
    ...(info.sandboxUrl ? { SANDBOX_BASE_URL: info.sandboxUrl } : {}),
    ORDER_REFERENCE_KEY_FILE: info.orderReferenceKeyFile,
    ...(info.apiUrl ? { PUBLIC_BASE_URL: info.apiUrl } : {}),
    ...(info.userPoolId && info.userPoolClientId && info.cognitoIssuer && info.cognitoEndpoint
      ? { USER_POOL_ID: info.userPoolId, USER_POOL_CLIENT_ID: info.userPoolClientId, COGNITO_ISSUER: info.cognitoIssuer, COGNITO_ENDPOINT: info.cognitoEndpoint }
      : {}),
    // Every function gets them (the stack: only those that send, and the dashboard's).
    ...(info.sesEndpoint ? { SES_ENDPOINT: info.sesEndpoint, SENDER_EMAIL: info.senderEmail ?? LOCAL_SENDER_EMAIL } : {}),
  };
}
