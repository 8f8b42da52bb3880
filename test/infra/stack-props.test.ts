/** Stack props that operators override per stage, and the validation of their values. */
import { type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { HotelIntegrationStack } from '../../infra/stack';
import type { HotelIntegrationStackProps } from '../../infra/stage-settings';
import { testApp } from '../support/cdk-app';
import type { IConstruct } from 'constructs';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

const newApp = () => testApp();

describe('stack props', () => {
  const app = newApp();
  const stack = new HotelIntegrationStack(app, 'HotelIntegration-prod', {
    stage: 'prod',
    throttling: { rateLimit: 5, burstLimit: 10 },
    callbackRetryDelaysSeconds: [30, 90],
    supportedCurrencies: ['USD', 'KES'],
    logRetention: RetentionDays.ONE_YEAR,
  });
  const template = mergedTemplate(stack);
  const variables = (fn: IConstruct) =>
    template.toJSON().Resources[logicalIdOf(fn)].Properties.Environment.Variables;

  it('names the API stage after the stage and passes it to every function', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'prod' });
    expect(variables(stack.authorizerFunction).STAGE).toBe('prod');
  });

  it('applies the throttling override to every method', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 })],
    });
  });

  it('passes the retry delays to the sender and the currencies to payment functions', () => {
    expect(variables(stack.callbackSenderFunction).CALLBACK_RETRY_DELAYS_SECONDS).toBe('30,90');
    expect(variables(stack.routeFunctions.get('CreatePaymentOrder')!).SUPPORTED_CURRENCIES).toBe('USD,KES');
  });

  it('passes operator-chosen Stripe parameter names and grants only those, with kms:Decrypt via SSM on the given key', () => {
    const app = newApp();
    const kmsKeyArn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const custom = new HotelIntegrationStack(app, 'HotelIntegration-custom', {
      stage: 'custom',
      env: { account: '123456789012', region: 'eu-west-1' },
      stripeSecretKeyParameterName: '/payments/stripe/sk',
      stripeWebhookSecretParameterName: 'stripe-whsec',
      stripeSecretsKmsKeyArn: kmsKeyArn,
    });
    const json = mergedTemplate(custom).toJSON();
    const webhookFn = custom.routeFunctions.get('StripeWebhook')!;
    const fnId = logicalIdOf(webhookFn);
    expect(json.Resources[fnId].Properties.Environment.Variables).toMatchObject({
      STRIPE_SECRET_KEY_PARAMETER: '/payments/stripe/sk',
      STRIPE_WEBHOOK_SECRET_PARAMETER: 'stripe-whsec',
    });
    const roleId = logicalIdOf(webhookFn.role!);
    const statements = Object.values(json.Resources as Record<string, any>)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap((r) => r.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: 'ssm:GetParameter',
        Resource: [
          { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:eu-west-1:123456789012:parameter/payments/stripe/sk']] },
          { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:eu-west-1:123456789012:parameter/stripe-whsec']] },
        ],
      }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: 'kms:Decrypt',
        Resource: kmsKeyArn,
        Condition: { StringEquals: { 'kms:ViaService': 'ssm.eu-west-1.amazonaws.com' } },
      }),
    );
  });

  it('applies the log retention to every log group', () => {
    const groups = Object.values(template.findResources('AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThan(1);
    for (const group of groups) expect(group.Properties.RetentionInDays).toBe(365);
  });
});

describe('stack prop validation', () => {
  const build = (props: Partial<HotelIntegrationStackProps>) => () =>
    new HotelIntegrationStack(newApp(), 'HotelIntegration-bad', { stage: 'bad', ...props });

  it('rejects stage names API Gateway cannot use', () => {
    expect(build({ stage: 'my stage' })).toThrow(/stage/);
  });
  it('rejects Stripe parameter names SSM cannot have and KMS keys given other than by ARN', () => {
    expect(build({ stripeSecretKeyParameterName: 'my secret' })).toThrow(/parameter name/);
    expect(build({ stripeWebhookSecretParameterName: '/aws/reserved' })).toThrow(/parameter name/);
    expect(build({ stripeSecretsKmsKeyArn: 'alias/my-key' })).toThrow(/KMS key ARN/);
  });
  it('rejects currencies that are not ISO 4217 codes', () => {
    expect(build({ supportedCurrencies: ['usd'] })).toThrow(/ISO 4217/);
  });
  it('rejects retry delays that are not positive whole seconds', () => {
    expect(build({ callbackRetryDelaysSeconds: [60, Number.NaN] })).toThrow(/positive/);
    expect(build({ callbackRetryDelaysSeconds: [] })).toThrow(/positive/);
  });
});
