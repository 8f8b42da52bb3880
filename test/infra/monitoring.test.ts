/**
 * The alarms reach someone: a topic under a customer-managed key that CloudWatch may use, the
 * alarms on 429s, throttles, the delivery backlog and DynamoDB throttling, and their dashboard.
 * What AWS does with these (KMS and SNS policies for cloudwatch.amazonaws.com, metric filters)
 * cannot run here: the comments in infra/constructs/monitoring.ts cite the documentation.
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { BACKLOG_ALARM_SECONDS } from '../../infra/constructs/monitoring';
import { API_METRICS, PAYMENT_METRICS, SWEEPER_METRICS } from '../../definitions/metrics';
import { routesOfStage } from '../../definitions/routes';
import { HotelIntegrationStack } from '../../infra/stack';
import { tableDefinition } from '../../definitions/table';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;

const app = testApp();
// With the sandbox provider, so that every route function is deployed and checked.
const stack = new HotelIntegrationStack(app, 'HotelIntegration-test', { stage: 'test', sandboxPayments: true });
const template = mergedTemplate(stack);
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: CfnJson; DeletionPolicy?: string }>;

const logicalId = (construct: IConstruct) => logicalIdOf(construct);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const topicRef = () => ({ Ref: logicalId(stack.monitoring.topic) });
/** Each route function once: the routes of a dashboard resource share one. */
const routeFunctions = [...new Set(stack.routeFunctions.values())];
const functions = [
  ...routeFunctions,
  stack.authorizerFunction,
  stack.callbackSenderFunction,
  stack.deliverySweeperFunction,
];

/** A Ref / Fn::Join / Fn::GetAtt value as text, `${Ref}` for each reference. */
function render(value: CfnJson): string {
  if (typeof value === 'string') return value;
  if (value?.Ref) return `\${${value.Ref}}`;
  if (value?.['Fn::GetAtt']) return `\${${value['Fn::GetAtt'].join('.')}}`;
  if (value?.['Fn::Join']) return (value['Fn::Join'][1] as CfnJson[]).map(render).join(value['Fn::Join'][0]);
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

const ALARM_PREFIX = 'hotel-integration-test-';
const alarms = () => ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
function alarmNamed(id: string): CfnJson {
  const found = alarms().filter((a) => a.AlarmName === `${ALARM_PREFIX}${id}`);
  expect(found, id).toHaveLength(1);
  return found[0];
}

/** What the key and the topic let CloudWatch do: only for this account's alarms of this stage. */
const FROM_THE_STAGES_ALARMS = {
  StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
  ArnLike: { 'aws:SourceArn': 'arn:${AWS::Partition}:cloudwatch:${AWS::Region}:${AWS::AccountId}:alarm:hotel-integration-test-*' },
};
const renderConditions = (condition: CfnJson) => ({
  ...condition,
  ArnLike: { 'aws:SourceArn': render(condition.ArnLike['aws:SourceArn']) },
});

describe('alarm topic', () => {
  const keyId = () => logicalId(stack.monitoring.topicKey);

  it('is encrypted with its own customer-managed key, rotated every year and retained', () => {
    expect(resources[keyId()]).toMatchObject({
      Type: 'AWS::KMS::Key',
      DeletionPolicy: 'Retain',
      Properties: { EnableKeyRotation: true, RotationPeriodInDays: 365 },
    });
    template.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: 'alias/hotel-integration/test/alarm-topic',
      TargetKeyId: { 'Fn::GetAtt': [keyId(), 'Arn'] },
    });
    expect(resources[logicalId(stack.monitoring.topic)]!.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId(), 'Arn'] });
  });

  it("key policy lets CloudWatch generate data keys and decrypt, for the stage's alarms only", () => {
    const statements = resources[keyId()]!.Properties.KeyPolicy.Statement as CfnJson[];
    const cloudWatch = statements.filter((s) => s.Principal?.Service === 'cloudwatch.amazonaws.com');
    expect(cloudWatch).toHaveLength(1);
    expect(cloudWatch[0]).toMatchObject({ Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey*'], Resource: '*' });
    expect(renderConditions(cloudWatch[0].Condition)).toEqual(FROM_THE_STAGES_ALARMS);
    // Besides it, only the account's statement (so IAM policies apply), as CDK writes it.
    const others = statements.filter((s) => s !== cloudWatch[0]);
    expect(others).toHaveLength(1);
    expect(JSON.stringify(others[0].Principal)).toContain(':root');
  });

  it("is TLS-only, and its policy lets the stage's alarms publish", () => {
    const policies = ofType('AWS::SNS::TopicPolicy').filter(([, p]) => p.Properties.Topics.some((t: CfnJson) => t.Ref === topicRef().Ref));
    expect(policies).toHaveLength(1);
    const statements = policies[0]![1].Properties.PolicyDocument.Statement as CfnJson[];
    expect(statements[0]).toMatchObject({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish', Resource: topicRef() });
    expect(renderConditions(allows[0].Condition)).toEqual(FROM_THE_STAGES_ALARMS);
  });

  it('is where every alarm goes, and every alarm has a name the key and topic policies let publish', () => {
    expect(alarms().length).toBeGreaterThan(functions.length);
    for (const alarm of alarms()) {
      expect(alarm.AlarmName, JSON.stringify(alarm.AlarmName)).toMatch(new RegExp(`^${ALARM_PREFIX}[A-Za-z0-9]+$`));
      expect(alarm.AlarmActions, alarm.AlarmName).toEqual([topicRef()]);
      expect(alarm.ComparisonOperator, alarm.AlarmName).toBe('GreaterThanOrEqualToThreshold');
      expect(alarm.AlarmDescription, alarm.AlarmName).toBeTruthy();
    }
  });
});

describe('alarms', () => {
  it('counts API 429 answers from the access log, whose status is a string', () => {
    const filters = ofType('AWS::Logs::MetricFilter').map(([, f]) => f.Properties);
    expect(filters).toHaveLength(1);
    expect(filters[0]).toEqual({
      LogGroupName: { Ref: logicalId(stack.api.accessLogs) },
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [{ MetricNamespace: 'HotelIntegration', MetricName: API_METRICS.tooManyRequests, MetricValue: '1', Unit: 'Count' }],
    });
    // The pattern compares a string: the access log must keep writing the status quoted.
    const stage = resources[logicalId(stack.api.restApi.deploymentStage)]!.Properties;
    expect(stage.AccessLogSetting.DestinationArn).toEqual({ 'Fn::GetAtt': [logicalId(stack.api.accessLogs), 'Arn'] });
    expect(JSON.parse(stage.AccessLogSetting.Format).status).toBe('$context.status');
  });

  it('ApiTooManyRequests: 100 or more 429s in each of two 5-minute periods', () => {
    expect(alarmNamed('ApiTooManyRequests')).toMatchObject({
      Namespace: 'HotelIntegration',
      MetricName: API_METRICS.tooManyRequests,
      Statistic: 'Sum',
      Period: 300,
      Threshold: 100,
      EvaluationPeriods: 2,
      TreatMissingData: 'notBreaching',
    });
    expect(alarmNamed('ApiTooManyRequests').Dimensions).toBeUndefined();
  });

  it('DeliveryBacklog: the oldest due delivery 15 minutes late for 3 minutes, or the sweeper silent', () => {
    expect(BACKLOG_ALARM_SECONDS).toBe(900);
    const alarm = alarmNamed('DeliveryBacklog');
    expect(alarm).toMatchObject({
      Namespace: 'HotelIntegration',
      MetricName: SWEEPER_METRICS.oldestDueAgeSeconds,
      Dimensions: [{ Name: 'service', Value: 'hotel-integration-api' }],
      Statistic: 'Maximum',
      Period: 60,
      Threshold: 900,
      EvaluationPeriods: 3,
      // The sweeper publishes every minute: no figure means it is not running.
      TreatMissingData: 'breaching',
    });
    // Whatever unit the sweeper publishes with, the alarm reads it.
    expect(alarm.Unit).toBeUndefined();
    expect([undefined, 3]).toContain(alarm.DatapointsToAlarm);
  });

  it('DynamoDbThrottling: read and write throttle events of the table and of every index, summed', () => {
    const alarm = alarmNamed('DynamoDbThrottling');
    expect(alarm).toMatchObject({ Threshold: 10, EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    const queries = alarm.Metrics as CfnJson[];
    const [expression, ...metrics] = [queries.find((q) => q.Expression), ...queries.filter((q) => q.MetricStat)];
    expect(expression.ReturnData).toBe(true);
    expect(expression.Expression).toBe(`SUM([${metrics.map((m) => m.Id).join(', ')}])`);
    const tableRef = { Ref: logicalId(stack.table) };
    const expected = [undefined, ...tableDefinition.globalSecondaryIndexes.map((i) => i.indexName)].flatMap((index) =>
      ['ReadThrottleEvents', 'WriteThrottleEvents'].map((name) => ({
        name,
        dimensions: { TableName: tableRef, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
      })),
    );
    const dimensionsOf = (m: CfnJson) => Object.fromEntries((m.MetricStat.Metric.Dimensions as CfnJson[]).map((d) => [d.Name, d.Value]));
    expect(metrics.map((m) => ({ name: m.MetricStat.Metric.MetricName, dimensions: dimensionsOf(m) }))).toEqual(expected);
    for (const m of metrics) expect(m.MetricStat).toMatchObject({ Metric: { Namespace: 'AWS/DynamoDB' }, Stat: 'Sum', Period: 300 });
    // CloudWatch refuses alarms on expressions of more than 10 metrics.
    expect(metrics.length).toBeLessThanOrEqual(10);
  });

  it('one Throttles alarm per function: every route function, the authorizer, the sender and the sweeper', () => {
    // One per function of the route table, not per route.
    expect(routeFunctions.map((fn) => fn.node.id).sort()).toEqual(
      [...new Set(routesOfStage({ sandboxPayments: true }).map((r) => `${r.function ?? r.id}Function`))].sort(),
    );
    const throttles = alarms().filter((a) => a.MetricName === 'Throttles');
    expect(throttles).toHaveLength(functions.length);
    for (const fn of functions) {
      const alarm = alarmNamed(`${fn.node.id}Throttles`);
      expect(alarm, fn.node.id).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Throttles',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(fn) } }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        TreatMissingData: 'notBreaching',
      });
    }
    expect(alarmNamed('SendCallbackFunctionThrottles').AlarmDescription).toContain('dead-letter queue');
  });

  it('keeps the payment amount/currency mismatch and checkout-not-found alarms on what the verify path publishes', () => {
    for (const [id, metricName] of [
      ['PaymentAmountMismatch', PAYMENT_METRICS.amountMismatch],
      ['PaymentCheckoutNotFound', PAYMENT_METRICS.checkoutNotFound],
    ] as const) {
      expect(alarmNamed(id)).toMatchObject({ Namespace: 'HotelIntegration', MetricName: metricName, Statistic: 'Sum', Threshold: 1 });
    }
  });

  // A sweeper run that cannot carry on a bulk resend publishes BulkResendNotContinued = 1
  // (functions/sweep-deliveries.ts); the run itself succeeds, so DeliverySweeperErrors never
  // fires for it. Metric alarm properties:
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-cloudwatch-alarm.html
  it('alarms when a bulk resend could not be continued, on the metric the sweeper publishes, to the topic', () => {
    expect(alarmNamed('BulkResendNotContinued')).toMatchObject({
      Namespace: 'HotelIntegration',
      MetricName: SWEEPER_METRICS.bulkResendNotContinued,
      Dimensions: [{ Name: 'service', Value: 'hotel-integration-api' }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [topicRef()],
    });
    expect(alarmNamed('BulkResendNotContinued').AlarmDescription).toContain("'bulk resends could not be continued'");
  });
});

describe('dashboard', () => {
  const dashboards = ofType('AWS::CloudWatch::Dashboard');
  const widgets = () => JSON.parse(render(dashboards[0]![1].Properties.DashboardBody)).widgets as CfnJson[];
  const widget = (title: string) => {
    const found = widgets().filter((w) => w.properties.title === title);
    expect(found, title).toHaveLength(1);
    return found[0].properties;
  };
  /** A widget's metrics as [namespace, name, dimensions], without the rendering options. */
  const metricsOf = (properties: CfnJson) =>
    (properties.metrics as CfnJson[][]).map((m) => {
      const [namespace, name, ...pairs] = m.filter((part) => typeof part === 'string') as string[];
      return [namespace, name, Object.fromEntries(pairs.flatMap((_, i) => (i % 2 ? [] : [[pairs[i], pairs[i + 1]]])))];
    });

  it('is one dashboard', () => {
    expect(dashboards).toHaveLength(1);
  });

  it('shows the delivery backlog against the alarm threshold', () => {
    const backlog = widget('Delivery backlog: age of the oldest due delivery (s)');
    expect(metricsOf(backlog)).toEqual([['HotelIntegration', SWEEPER_METRICS.oldestDueAgeSeconds, { service: 'hotel-integration-api' }]]);
    expect(backlog.metrics[0].at(-1)).toMatchObject({ stat: 'Maximum', period: 60 });
    expect(backlog.annotations.horizontal).toEqual([{ value: BACKLOG_ALARM_SECONDS, label: 'DeliveryBacklog alarm', yAxis: 'left' }]);
  });

  it('shows API 429 answers and the throttle events of the table and each index', () => {
    const throttling = metricsOf(widget('Throttling: API 429 answers and DynamoDB throttle events'));
    const table = `\${${logicalId(stack.table)}}`;
    expect(throttling).toEqual([
      ['HotelIntegration', API_METRICS.tooManyRequests, {}],
      ...[undefined, ...tableDefinition.globalSecondaryIndexes.map((i) => i.indexName)].flatMap((index) =>
        ['ReadThrottleEvents', 'WriteThrottleEvents'].map((name) => [
          'AWS/DynamoDB',
          name,
          { TableName: table, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
        ]),
      ),
    ]);
  });

  it('shows the throttles of every function', () => {
    const throttles = metricsOf(widget('Function throttles'));
    expect(throttles).toEqual(functions.map((fn) => ['AWS/Lambda', 'Throttles', { FunctionName: `\${${logicalId(fn)}}` }]));
  });
});
