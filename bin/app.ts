/**
 * The CDK app: `npx cdk synth -c stage=NAME` (default dev). Optional context:
 * `supportedCurrencies=USD,EUR`, `callbackRetryDelaysSeconds=60,300`, `alarmEmail=ops@example.com`,
 * `stripeSecretKeyParameter=/path`, `stripeWebhookSecretParameter=/path`,
 * `sandboxPayments=true` (a partner-testing stage only; refused for prod), and
 * `senderEmail=bookings@example.com` (a verified SES identity; without it the stage sends no
 * e-mail to guests) with `senderIdentity=example.com` when the domain is the verified identity.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { HotelIntegrationStack } from '../infra/stack';

const app = new App();

const stage = String(app.node.tryGetContext('stage') ?? 'dev');
const list = (name: string): string[] | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return value === undefined ? undefined : String(value).split(',').map((item) => item.trim());
};

const text = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return value === undefined ? undefined : String(value);
};

const flag = (name: string): boolean | undefined => {
  const value = text(name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new Error(`-c ${name} must be true or false, not "${value}"`);
  return value === 'true';
};

try {
  new HotelIntegrationStack(app, `HotelIntegration-${stage}`, {
    stage,
    supportedCurrencies: list('supportedCurrencies'),
    callbackRetryDelaysSeconds: list('callbackRetryDelaysSeconds')?.map(Number),
    alarmEmail: text('alarmEmail'),
    stripeSecretKeyParameterName: text('stripeSecretKeyParameter'),
    stripeWebhookSecretParameterName: text('stripeWebhookSecretParameter'),
    sandboxPayments: flag('sandboxPayments'),
    senderEmail: text('senderEmail'),
    senderIdentity: text('senderIdentity'),
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
} catch (error) {
  // A refused setting (a prod stage with the sandbox, a bad name...) is the operator's to fix: say it plainly.
  console.error(`Cannot synthesize stage "${stage}": ${(error as Error).message}`);
  process.exit(1);
}

// cdk-nag 3 runs as a CDK policy-validation plugin (not an Aspect): any unacknowledged
// AwsSolutions error fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
