/**
 * The Stripe platform secrets. Locally and in tests they come straight from the environment
 * (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET); in the stack the environment names SSM
 * SecureString parameters instead (STRIPE_SECRET_KEY_PARAMETER, STRIPE_WEBHOOK_SECRET_PARAMETER),
 * read on first use and cached per container. Nothing here runs until a Stripe
 * client actually needs a secret, so sandbox-only deployments never touch SSM. Values are never
 * logged.
 */
import { config } from '../config';
import { errors } from '../errors';
import { isTransient } from '../http/error-envelope';
import { logger, traced } from '../observability';

/** How long a container keeps a parameter value before reading it again (a rotated key applies within this). */
export const SECRET_MAX_AGE_SECONDS = 300;

export type StripeSecret = 'secretKey' | 'webhookSecret';

const SOURCES = {
  secretKey: { value: 'STRIPE_SECRET_KEY', parameter: 'STRIPE_SECRET_KEY_PARAMETER', parameterField: 'secretKeyParameter', what: 'Stripe secret key' },
  webhookSecret: { value: 'STRIPE_WEBHOOK_SECRET', parameter: 'STRIPE_WEBHOOK_SECRET_PARAMETER', parameterField: 'webhookSecretParameter', what: 'Stripe webhook signing secret' },
} as const;

/** The platform is not set up for Stripe: an operator's fault, answered as a 500 and logged. */
export class StripeNotConfiguredError extends Error {
  override name = 'StripeNotConfiguredError';
}

export async function stripeSecret(secret: StripeSecret): Promise<string> {
  const source = SOURCES[secret];
  const stripe = config().stripe;
  const direct = stripe[secret];
  if (direct) return direct;
  const parameterName = stripe[source.parameterField];
  if (!parameterName) {
    throw new StripeNotConfiguredError(`The ${source.what} is not configured: set ${source.value} or ${source.parameter}`);
  }
  let value: string | undefined;
  try {
    value = await readParameter(parameterName);
  } catch (error) {
    if (isTransient(error)) {
      logger.warn('SSM unavailable while reading a Stripe secret', { parameter: parameterName, error: (error as Error).name });
      throw errors.serviceUnavailable();
    }
    throw new StripeNotConfiguredError(`Cannot read the ${source.what} from SSM parameter ${parameterName}: ${(error as Error).name}`);
  }
  if (!value?.trim()) throw new StripeNotConfiguredError(`SSM parameter ${parameterName} (${source.what}) is empty`);
  return value.trim();
}

const parameterCache = new Map<string, { value: string | undefined; readAt: number }>();
let ssmClient: Promise<import('@aws-sdk/client-ssm').SSMClient> | undefined;

/**
 * A SecureString from SSM, cached per container. The SDK client is imported on first use: an
 * import at the top of the bundle would load it at every cold start of the payment functions.
 */
async function readParameter(name: string): Promise<string | undefined> {
  const hit = parameterCache.get(name);
  if (hit && Date.now() - hit.readAt < SECRET_MAX_AGE_SECONDS * 1000) return hit.value;
  const { SSMClient, GetParameterCommand } = await import('@aws-sdk/client-ssm');
  ssmClient ??= Promise.resolve(traced(new SSMClient({ maxAttempts: 3 })));
  const { Parameter } = await (await ssmClient).send(new GetParameterCommand({ Name: name, WithDecryption: true }));
  parameterCache.set(name, { value: Parameter?.Value, readAt: Date.now() });
  return Parameter?.Value;
}
