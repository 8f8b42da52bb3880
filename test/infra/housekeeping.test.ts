/**
 * The deployed shape's housekeeping (docs/behaviour.md "Payment safety in deployed stages"): no secret
 * of a path in the access logs, the table's deletion protection, the sweeper without Lambda's
 * asynchronous retries, the guest function's currencies. Bundling is skipped (aws:cdk:bundling-stacks).
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { guestRoutes } from '../../definitions/page-routes';
import { DEFAULT_SUPPORTED_CURRENCIES } from '../../definitions/service-defaults';
import { HotelIntegrationStack } from '../../infra/stack';
import { testApp } from '../support/cdk-app';
import type { IConstruct } from 'constructs';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;

const app = testApp();
const stack = new HotelIntegrationStack(app, 'HotelIntegration-prod', { stage: 'prod', supportedCurrencies: ['EUR', 'KES'] });
const template = mergedTemplate(stack);
const resources = (template.toJSON() as { Resources: Record<string, { Type: string; Properties: CfnJson }> }).Resources;
const logicalId = (construct: IConstruct) => logicalIdOf(construct);
const ofType = (type: string) => Object.values(resources).filter((r) => r.Type === type);

describe('access logs', () => {
  // $context variables of access logs:
  // https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-variables-for-access-logging.html
  const [stage] = ofType('AWS::ApiGateway::Stage');
  const format: string = stage!.Properties.AccessLogSetting.Format;

  it("log the route's resource path, never the request's path (a guest's confirmation token is in it)", () => {
    expect(JSON.parse(format)).toMatchObject({ resourcePath: '$context.resourcePath', method: '$context.httpMethod' });
    expect(guestRoutes.map((r) => r.path)).toContain('/book/{client_id}/confirmation/{token}');
    // $context.path is the request's path; no field that holds it or the query string.
    for (const variable of ['$context.path', '$context.requestOverride', '$input.', '$method.request']) expect(format).not.toContain(variable);
  });

  it('and no execution log carries bodies or the data trace', () => {
    expect(stage!.Properties.MethodSettings).toEqual([expect.objectContaining({ DataTraceEnabled: false, LoggingLevel: 'ERROR' })]);
  });

  it("the functions never log their events (Powertools logger's POWERTOOLS_LOGGER_LOG_EVENT unset)", () => {
    for (const fn of ofType('AWS::Lambda::Function')) expect(fn.Properties.Environment.Variables).not.toHaveProperty('POWERTOOLS_LOGGER_LOG_EVENT');
  });
});

describe('table', () => {
  it('has deletion protection on, besides being retained when the stack goes', () => {
    // AWS::DynamoDB::Table DeletionProtectionEnabled:
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-table.html#cfn-dynamodb-table-deletionprotectionenabled
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
  });
});

describe('delivery sweeper', () => {
  it('is not retried by Lambda when a run fails (asynchronous invocation: MaximumRetryAttempts 0)', () => {
    // AWS::Lambda::EventInvokeConfig MaximumRetryAttempts (0 to 2, default 2):
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-lambda-eventinvokeconfig.html
    const configs = ofType('AWS::Lambda::EventInvokeConfig');
    expect(configs).toHaveLength(1);
    expect(configs[0]!.Properties).toMatchObject({
      FunctionName: { Ref: logicalId(stack.deliverySweeperFunction) },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 0,
    });
  });

  it('nor by EventBridge (the schedule target’s retry policy)', () => {
    // AWS::Events::Rule Target RetryPolicy:
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-events-rule-retrypolicy.html
    const [rule] = ofType('AWS::Events::Rule');
    expect(rule!.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [logicalId(stack.deliverySweeperFunction), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }),
    ]);
  });
});

describe('guest booking function', () => {
  it("gets the stage's supported currencies, as the payment functions do (it creates payment orders)", () => {
    const guest = resources[logicalId(stack.routeFunctions.get('GuestBookingCreate')!)]!.Properties.Environment.Variables;
    const payment = resources[logicalId(stack.routeFunctions.get('CreatePaymentOrder')!)]!.Properties.Environment.Variables;
    expect(guest.SUPPORTED_CURRENCIES).toBe('EUR,KES');
    expect(guest.SUPPORTED_CURRENCIES).toBe(payment.SUPPORTED_CURRENCIES);
    expect(guest.SANDBOX_PAYMENTS).toBe('false');
    expect(DEFAULT_SUPPORTED_CURRENCIES).not.toEqual(['EUR', 'KES']);
  });
});
