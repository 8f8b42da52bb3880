/**
 * What an operator sets per stage (the stack's props; bin/app.ts reads them from `-c` context),
 * their defaults, and their validation: `stageSettings` turns the props into the checked settings
 * the stack builds from, and refuses a stage before any construct is made.
 */
import type { StackProps } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { checkAuthorizerCacheTtl, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from '../definitions/authorizers';
import { DEFAULT_PLAN_LIMITS, type Plan, type PlanLimits, PLANS } from '../definitions/plans';
import type { ProviderSecret } from '../definitions/route-access';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from '../definitions/service-defaults';
import type { ApiThrottling } from './constructs/api';
import type { EmailSender } from './constructs/email-sender';
import { defaultProviderSecretNames } from './constructs/provider-secrets';
import { DEFAULT_GUEST_BOOKING_RATE_LIMIT, DEFAULT_KEYED_RATE_LIMIT, DEFAULT_PUBLIC_RATE_LIMIT, type PublicRateLimit } from './constructs/public-rate-limit';

/**
 * Every method's ceiling, all clients together: clients are limited one by one by their plans'
 * usage plans, so this is only a backstop, ten times the highest plan so that one client at its
 * limit never exhausts it for the others.
 */
export const DEFAULT_THROTTLING: ApiThrottling = { rateLimit: 1_000, burstLimit: 2_000 };

export interface HotelIntegrationStackProps extends StackProps {
  /** Names the API Gateway stage and is passed to every function as STAGE. */
  stage: string;
  /** @default DEFAULT_THROTTLING */
  throttling?: ApiThrottling;
  /** Per-client rate limits of each plan (its usage plan), for the plans given. @default DEFAULT_PLAN_LIMITS */
  planLimits?: Partial<Record<Plan, PlanLimits>>;
  /**
   * How long API Gateway caches the sync authorizer's policy per Authorization header, 1 to 30 s
   * (with the authorizer's 30 s key cache a revoked key stops within 60 s).
   * @default DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS
   */
  authorizerCacheTtlSeconds?: number;
  /** The WAF rate-based rule per source IP on the public routes. @default DEFAULT_PUBLIC_RATE_LIMIT */
  publicRateLimit?: PublicRateLimit;
  /** The WAF rate-based rule per source IP on guest booking POSTs. @default DEFAULT_GUEST_BOOKING_RATE_LIMIT */
  guestBookingRateLimit?: PublicRateLimit;
  /** The WAF rate-based rule per source IP on the keyed routes. @default DEFAULT_KEYED_RATE_LIMIT */
  keyedRateLimit?: PublicRateLimit;
  /** Delays between automatic callback attempts. @default DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS */
  callbackRetryDelaysSeconds?: readonly number[];
  /** ISO 4217 codes payment orders accept. @default DEFAULT_SUPPORTED_CURRENCIES */
  supportedCurrencies?: readonly string[];
  /** E-mail address subscribed to the alarm topic. @default none (subscribe later) */
  alarmEmail?: string;
  /** Retention of function logs and API access logs. @default one month */
  logRetention?: RetentionDays;
  /**
   * SSM SecureString parameter holding the Stripe platform secret key (sk_…), created by the
   * operator. Read only when a client uses Stripe. @default /hotel-integration/STAGE/stripe/secret-key
   */
  stripeSecretKeyParameterName?: string;
  /**
   * SSM SecureString parameter holding the Stripe webhook signing secret(s) (whsec_…,
   * comma-separated for several endpoints). @default /hotel-integration/STAGE/stripe/webhook-secret
   */
  stripeWebhookSecretParameterName?: string;
  /** Customer managed KMS key of those parameters, if not the AWS managed aws/ssm key. */
  stripeSecretsKmsKeyArn?: string;
  /**
   * Deploys the sandbox payment provider (its hosted page and form, on a function URL of its
   * own), for a partner-testing stage. Anyone can mark a sandbox order paid without money:
   * refused for the stage `prod`.
   * @default false
   */
  sandboxPayments?: boolean;
  /**
   * The address e-mails to guests are sent from (booking confirmations, the "Confirm your booking"
   * link of pay at the hotel), a verified SES identity of the stage's account and region
   * (docs/operations.md). The functions that send may send from it only. @default none: the
   * stage sends no e-mail, and pay at the hotel cannot be turned on
   */
  senderEmail?: string;
  /**
   * The verified SES identity the sender belongs to, when it is its domain rather than the address
   * itself (`example.com` for `bookings@example.com`). @default senderEmail
   */
  senderIdentity?: string;
}

/** The stage name the local stack runs as: a deployed stage named so would get its relaxations. */
const RESERVED_STAGE = 'local';
/** The stage that may never run the sandbox provider. */
export const PRODUCTION_STAGE = 'prod';

/** A stage's props with their defaults filled in, every value checked: what the stack builds from. */
export interface StageSettings {
  stage: string;
  sandboxPayments: boolean;
  /** The stage's e-mail sender; none: the stage sends no e-mail to guests. */
  sender?: EmailSender;
  callbackRetryDelaysSeconds: readonly number[];
  supportedCurrencies: readonly string[];
  logRetention: RetentionDays;
  providerSecretNames: Record<ProviderSecret, string>;
  stripeSecretsKmsKeyArn?: string;
  authorizerCacheTtlSeconds: number;
  throttling: ApiThrottling;
  planLimits: Record<Plan, PlanLimits>;
  publicRateLimit: PublicRateLimit;
  guestBookingRateLimit: PublicRateLimit;
  keyedRateLimit: PublicRateLimit;
  alarmEmail?: string;
}

/** The settings of the stage the props describe; throws, saying why, for a stage it refuses. */
export function stageSettings(props: HotelIntegrationStackProps): StageSettings {
  const { stage } = props;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stage)) throw new Error(`Invalid stage name "${stage}": use letters, digits, - and _`);
  if (stage === RESERVED_STAGE) throw new Error(`The stage name "${RESERVED_STAGE}" is the local stack's (http and loopback URLs allowed): choose another`);
  const sandboxPayments = props.sandboxPayments ?? false;
  if (sandboxPayments && stage === PRODUCTION_STAGE) {
    throw new Error(
      `sandboxPayments cannot be turned on for the stage "${PRODUCTION_STAGE}": its checkout lets anyone mark an order paid without money, ` +
        'which would confirm bookings and lock rooms. Use it on a partner-testing stage only.',
    );
  }
  const sender = emailSender(props);
  const retryDelays = props.callbackRetryDelaysSeconds ?? DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS;
  if (retryDelays.length === 0 || !retryDelays.every((d) => Number.isInteger(d) && d > 0)) {
    throw new Error('callbackRetryDelaysSeconds must be positive whole numbers of seconds');
  }
  const currencies = props.supportedCurrencies ?? DEFAULT_SUPPORTED_CURRENCIES;
  if (currencies.length === 0 || !currencies.every((c) => /^[A-Z]{3}$/.test(c))) {
    throw new Error('supportedCurrencies must be uppercase ISO 4217 codes');
  }
  const defaultSecretNames = defaultProviderSecretNames(stage);
  return {
    stage,
    sandboxPayments,
    sender,
    callbackRetryDelaysSeconds: retryDelays,
    supportedCurrencies: currencies,
    logRetention: props.logRetention ?? RetentionDays.ONE_MONTH,
    providerSecretNames: {
      stripeSecretKey: props.stripeSecretKeyParameterName ?? defaultSecretNames.stripeSecretKey,
      stripeWebhookSecret: props.stripeWebhookSecretParameterName ?? defaultSecretNames.stripeWebhookSecret,
    },
    stripeSecretsKmsKeyArn: props.stripeSecretsKmsKeyArn,
    authorizerCacheTtlSeconds: checkAuthorizerCacheTtl(props.authorizerCacheTtlSeconds ?? DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS),
    throttling: props.throttling ?? DEFAULT_THROTTLING,
    planLimits: checkPlanLimits({ ...DEFAULT_PLAN_LIMITS, ...props.planLimits }),
    publicRateLimit: props.publicRateLimit ?? DEFAULT_PUBLIC_RATE_LIMIT,
    guestBookingRateLimit: props.guestBookingRateLimit ?? DEFAULT_GUEST_BOOKING_RATE_LIMIT,
    keyedRateLimit: props.keyedRateLimit ?? DEFAULT_KEYED_RATE_LIMIT,
    alarmEmail: props.alarmEmail,
  };
}

/** An e-mail address as SES takes it for a sender (no display name: the functions add the hotel's). */
const SENDER_ADDRESS = /^[^\s@<>",;]+@([^\s@<>",;]+\.[^\s@<>",;]+)$/;

/** The stage's sender, when it has one: the address and its verified identity (the address, or its domain). */
function emailSender(props: HotelIntegrationStackProps): EmailSender | undefined {
  if (props.senderEmail === undefined) {
    if (props.senderIdentity !== undefined) throw new Error('senderIdentity needs senderEmail');
    return undefined;
  }
  const address = props.senderEmail.trim();
  const domain = SENDER_ADDRESS.exec(address)?.[1];
  if (!domain) throw new Error(`senderEmail must be an e-mail address such as bookings@example.com, not "${props.senderEmail}"`);
  const identity = props.senderIdentity?.trim() ?? address;
  if (identity.toLowerCase() !== address.toLowerCase() && identity.toLowerCase() !== domain.toLowerCase()) {
    throw new Error(`senderIdentity must be senderEmail itself or its domain ${domain}, not "${identity}"`);
  }
  return { address, identity };
}

/** Usage plan throttles: a positive rate, a whole burst of at least one request. */
function checkPlanLimits(limits: Record<Plan, PlanLimits>): Record<Plan, PlanLimits> {
  for (const plan of PLANS) {
    const { rateLimit, burstLimit } = limits[plan];
    if (!(rateLimit > 0) || !Number.isInteger(burstLimit) || burstLimit < 1) {
      throw new Error(`planLimits.${plan}: rateLimit must be above 0 and burstLimit a whole number from 1`);
    }
  }
  return limits;
}
