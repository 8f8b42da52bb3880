/**
 * The one reader of the environment in shared/. The environment is parsed and validated once,
 * on the first call of config() (a function's init: handlers call it at module load), and a
 * missing or malformed value fails loudly there instead of falling back to a default that would
 * fail open (a missing STAGE used to mean "local").
 *
 * The local stack sets the same variables the CDK stack sets, then calls resetConfig() before
 * it loads any function (its own "init").
 */
import * as z from 'zod/mini';
import { DEFAULT_API_KEY_CACHE_TTL_SECONDS } from '../definitions/authorizers';
import { isPlan, type Plan } from '../definitions/plans';
import { callbackQueue } from '../definitions/queues';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from '../definitions/service-defaults';

/** The stage name the local stack runs as; every deployed stage has another name. */
export const LOCAL_STAGE = 'local';

const optionalText = z.optional(z.string().check(z.minLength(1)));
const flag = z.pipe(
  z.optional(z.enum(['true', 'false'])),
  z.transform((value) => value === 'true'),
);
const list = <T>(item: z.ZodMiniType<T>, fallback: readonly T[]) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return [...fallback];
      const parsed: T[] = [];
      for (const part of raw.split(',')) {
        const result = item.safeParse(part.trim());
        if (!result.success) {
          ctx.issues.push({ code: 'custom', input: raw, message: `"${part.trim()}" is not valid` });
          return z.NEVER;
        }
        parsed.push(result.data);
      }
      return parsed;
    }),
  );

const environment = z.object({
  STAGE: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  TABLE_NAME: z.string().check(z.minLength(1)),
  /** Only the functions that enqueue deliveries have it (callbackQueueUrl() checks). */
  CALLBACK_QUEUE_URL: optionalText,
  /** Explicit SQS endpoint for emulators (their queue URLs use a *.localhost host). */
  SQS_ENDPOINT: optionalText,
  /** Base URL of links the service hands out (local stack, custom domains); else the stage URL. */
  PUBLIC_BASE_URL: optionalText,
  SUPPORTED_CURRENCIES: list(z.string().check(z.regex(/^[A-Z]{3}$/)), DEFAULT_SUPPORTED_CURRENCIES),
  CALLBACK_RETRY_DELAYS_SECONDS: list(
    z.pipe(z.string().check(z.regex(/^\d+$/)), z.transform(Number)),
    DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS,
  ),
  /**
   * How long a received callback message stays invisible before the queue hands it out again
   * (shared/domain/callbacks/resend.ts). Unset: the stack's queue's; the local stack's poller
   * uses a shorter one and sets it.
   */
  CALLBACK_VISIBILITY_TIMEOUT_SECONDS: z.pipe(
    z.optional(z.string().check(z.regex(/^[1-9]\d{0,4}$/))),
    z.transform((value) => (value === undefined ? callbackQueue.visibilityTimeoutSeconds : Number(value))),
  ),
  /** Nameservers the callback sender asks (`ip` or `ip:port`, comma-separated); unset: the system's. */
  DNS_SERVERS: list(z.string().check(z.regex(/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)$/)), []),
  /** The sandbox provider is on (docs/behaviour.md "Payment safety in deployed stages"); off unless set. */
  SANDBOX_PAYMENTS: flag,
  /**
   * The sandbox checkout's own origin (its function URL; the local stack's SANDBOX_PORT), given to
   * the functions that open checkouts or send guests to one. Never the API's base URL.
   */
  SANDBOX_BASE_URL: z.optional(z.url({ protocol: /^https?$/ })),
  /** Stripe platform secrets: in clear locally and in tests, else SSM parameter names. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_SECRET_KEY_PARAMETER: optionalText,
  STRIPE_WEBHOOK_SECRET_PARAMETER: optionalText,
  /** A local stand-in of Stripe's API (tests), instead of https://api.stripe.com. */
  STRIPE_API_BASE: optionalText,
  /** The key order references are derived with: a key file locally, a Secrets Manager secret in the stack. */
  ORDER_REFERENCE_KEY_FILE: optionalText,
  ORDER_REFERENCE_KEY_SECRET_ARN: optionalText,
  /** What seals signing secrets (shared/secrets/sealed-secrets.ts): the stage's KMS key, or the local stack's key file. */
  SECRETS_KMS_KEY_ARN: optionalText,
  /**
   * The stage's API Gateway usage plan of each plan (`standard=id,premium=id`): set for the ops
   * CLI on a deployed stage, which registers clients' usage keys in them. Locally unset.
   */
  USAGE_PLAN_IDS: z.pipe(
    z.optional(z.string()),
    z.transform((raw, ctx) => {
      if (!raw) return undefined;
      const ids: Partial<Record<Plan, string>> = {};
      for (const part of raw.split(',')) {
        const [plan, id] = part.split('=').map((s) => s.trim());
        if (!isPlan(plan) || !id) {
          ctx.issues.push({ code: 'custom', input: raw, message: `"${part}" is not plan=usagePlanId` });
          return z.NEVER;
        }
        ids[plan] = id;
      }
      return ids;
    }),
  ),
  SECRETS_KEY_FILE: optionalText,
  /**
   * How long the authorizer keeps a key lookup in memory (1 to 30 s; default 30). With the sync
   * authorizer's result cache (at most 30 s) a revoked key stops within 60 s. Tests shorten it.
   */
  /** The operators' user pool and the dashboard's app client (stack outputs UserPoolId, UserPoolClientId). */
  USER_POOL_ID: optionalText,
  USER_POOL_CLIENT_ID: optionalText,
  /** The tokens' `iss`: unset, Cognito's for USER_POOL_ID; the local stack sets cognito-local's (http). */
  COGNITO_ISSUER: optionalText,
  /** cognito-local's endpoint; unset, the SDK's Cognito endpoint for the pool's region. */
  COGNITO_ENDPOINT: optionalText,
  /**
   * The verified SES identity e-mails to guests are sent from (`-c senderEmail=...` at deploy):
   * only the functions that send e-mail, and the dashboard's (which says whether the stage sends
   * any), have it. Unset: the stage sends no e-mail, and pay at the hotel cannot be turned on.
   */
  SENDER_EMAIL: z.optional(z.string().check(z.regex(/^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/))),
  /** The SES v2 emulator's endpoint (aws-ses-v2-local); unset, SES of the function's region. Local stack only. */
  SES_ENDPOINT: optionalText,
  API_KEY_CACHE_TTL_SECONDS: z.pipe(
    z.optional(z.string().check(z.regex(/^([1-9]|[12]\d|30)$/))),
    z.transform((value) => (value === undefined ? DEFAULT_API_KEY_CACHE_TTL_SECONDS : Number(value))),
  ),
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof environment>) {
  return {
    stage: env.STAGE,
    isLocal: env.STAGE === LOCAL_STAGE,
    tableName: env.TABLE_NAME,
    callbackQueueUrl: env.CALLBACK_QUEUE_URL,
    sqsEndpoint: env.SQS_ENDPOINT,
    publicBaseUrl: env.PUBLIC_BASE_URL?.replace(/\/$/, ''),
    supportedCurrencies: env.SUPPORTED_CURRENCIES,
    callbackRetryDelaysSeconds: env.CALLBACK_RETRY_DELAYS_SECONDS,
    callbackVisibilityTimeoutSeconds: env.CALLBACK_VISIBILITY_TIMEOUT_SECONDS,
    dnsServers: env.DNS_SERVERS,
    sandboxPayments: env.SANDBOX_PAYMENTS,
    sandboxBaseUrl: env.SANDBOX_BASE_URL?.replace(/\/$/, ''),
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      secretKeyParameter: env.STRIPE_SECRET_KEY_PARAMETER,
      webhookSecretParameter: env.STRIPE_WEBHOOK_SECRET_PARAMETER,
      apiBase: env.STRIPE_API_BASE,
    },
    orderReferenceKey: { file: env.ORDER_REFERENCE_KEY_FILE, secretArn: env.ORDER_REFERENCE_KEY_SECRET_ARN },
    sealedSecrets: { kmsKeyArn: env.SECRETS_KMS_KEY_ARN, keyFile: env.SECRETS_KEY_FILE },
    usagePlanIds: env.USAGE_PLAN_IDS,
    apiKeyCacheTtlSeconds: env.API_KEY_CACHE_TTL_SECONDS,
    userPool: userPoolConfig(env),
    email: emailConfig(env),
  } as const;
}

/** E-mail to guests: the sender identity, and the emulator's endpoint on the local stack only. */
function emailConfig(env: z.infer<typeof environment>) {
  if (env.SES_ENDPOINT && env.STAGE !== LOCAL_STAGE) {
    throw new Error('Invalid configuration: SES_ENDPOINT (the SES emulator) is set outside the local stack');
  }
  return { sender: env.SENDER_EMAIL, endpoint: env.SES_ENDPOINT } as const;
}

/**
 * The user pool, when USER_POOL_ID and USER_POOL_CLIENT_ID are set. An `http:` issuer is
 * cognito-local's, whose signing key ships in its npm package: accepted on the local stage only.
 */
function userPoolConfig(env: z.infer<typeof environment>) {
  if (!env.USER_POOL_ID || !env.USER_POOL_CLIENT_ID) return undefined;
  const region = env.USER_POOL_ID.split('_')[0];
  const issuer = (env.COGNITO_ISSUER ?? `https://cognito-idp.${region}.amazonaws.com/${env.USER_POOL_ID}`).replace(/\/$/, '');
  if (!issuer.startsWith('https://') && env.STAGE !== LOCAL_STAGE) {
    throw new Error(`Invalid configuration: COGNITO_ISSUER ${issuer} is not https; only the local stack runs cognito-local`);
  }
  if (env.COGNITO_ENDPOINT && env.STAGE !== LOCAL_STAGE) {
    throw new Error('Invalid configuration: COGNITO_ENDPOINT (cognito-local) is set outside the local stack');
  }
  return {
    userPoolId: env.USER_POOL_ID,
    clientId: env.USER_POOL_CLIENT_ID,
    issuer,
    /** The region the SDK talks to: the pool's, or any for cognito-local. */
    region: env.COGNITO_ENDPOINT ? 'us-east-1' : region,
    endpoint: env.COGNITO_ENDPOINT,
  } as const;
}

/** The user pool configuration; throws when the function was given none. */
export function userPool(): NonNullable<Config['userPool']> {
  const pool = config().userPool;
  if (!pool) throw new Error('Missing required environment variables USER_POOL_ID and USER_POOL_CLIENT_ID');
  return pool;
}

/** Parses an environment; throws one error naming every missing or invalid variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = environment.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return Object.freeze(toConfig(result.data));
}

let current: Config | undefined;

/** The configuration, parsed from process.env on first use and kept. */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

/** Forgets the parsed configuration: the local stack and the ops CLI call it after setting the environment. */
export function resetConfig(): void {
  current = undefined;
}

/**
 * Whether Powertools Tracer can trace in this process at all (shared/observability.ts does not
 * import it otherwise). Its own rule (Tracer.setTracingEnabled): only in a Lambda execution
 * environment (AWS_EXECUTION_ENV set, and neither SAM local nor the Amplify mock), unless
 * POWERTOOLS_TRACE_ENABLED is "false". Read on its own, not through config(): the tracer is
 * created when its module loads, also in processes without the service's configuration.
 */
export function tracingPossible(env: Record<string, string | undefined> = process.env): boolean {
  const executionEnv = env.AWS_EXECUTION_ENV ?? '';
  return (
    (env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() !== 'false' &&
    executionEnv !== '' &&
    executionEnv !== 'AWS_Lambda_amplify-mock' &&
    !env.AWS_SAM_LOCAL
  );
}

export function callbackQueueUrl(): string {
  const url = config().callbackQueueUrl;
  if (!url) throw new Error('Missing required environment variable CALLBACK_QUEUE_URL');
  return url;
}

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_SYNC_ITEMS = 500;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
