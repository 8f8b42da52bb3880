/**
 * The Stripe platform secrets. Locally and in tests they come straight from the environment
 * (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET); in the stack the environment names SSM
 * SecureString parameters instead (STRIPE_SECRET_KEY_PARAMETER, STRIPE_WEBHOOK_SECRET_PARAMETER),
 * read decrypted on first use and kept per container for SECRET_MAX_AGE_SECONDS by Powertools
 * Parameters. Nothing here runs until a Stripe client actually needs a secret, so
 * sandbox-only deployments never touch SSM. Values are never logged.
 */
import { config } from '../config';
import { errors } from '../errors';
import { isTransient } from '../http/error-envelope';
import { logger, serviceClient } from '../observability';

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

/**
 * Powertools Parameters' cache (max age, one value per parameter name) over SecureStrings read
 * decrypted, one GetParameter each (the only SSM action the stack grants). Its SSMProvider
 * imports @aws-sdk/client-ssm at the top of its module, which the one-file bundle would load at
 * every cold start of the payment functions (test/unit/bundles.test.ts); so the provider is
 * Powertools' BaseProvider with that one read, and the SDK client and Powertools are imported on
 * first use.
 */
async function loadProvider() {
  const [{ BaseProvider }, { GetParameterCommand, SSMClient }] = await Promise.all([
    import('@aws-lambda-powertools/parameters/base'),
    import('@aws-sdk/client-ssm'),
  ]);
  const client = serviceClient(new SSMClient({ maxAttempts: 3 }));
  class SecureStringProvider extends BaseProvider {
    protected override async _get(name: string): Promise<string | undefined> {
      const { Parameter } = await client.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
      return Parameter?.Value;
    }

    protected override async _getMultiple(): Promise<never> {
      throw new Error('Stripe secrets are read one parameter at a time');
    }
  }
  return new SecureStringProvider({ awsSdkV3Client: client });
}

let provider: ReturnType<typeof loadProvider> | undefined;

/** A SecureString from SSM, kept per container for SECRET_MAX_AGE_SECONDS. */
async function readParameter(name: string): Promise<string | undefined> {
  provider ??= loadProvider();
  try {
    return (await (await provider).get(name, { maxAge: SECRET_MAX_AGE_SECONDS })) as string | undefined;
  } catch (error) {
    // Powertools wraps the SDK's error in a GetParameterError; its cause names what failed
    // (ParameterNotFound, a throttle), which decides between a 503 and a configuration error.
    throw error instanceof Error && error.name === 'GetParameterError' && error.cause ? error.cause : error;
  }
}
