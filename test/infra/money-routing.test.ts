/**
 * A change of where a client's money goes raises an alarm (docs/behaviour.md "Payment safety in deployed
 * stages"): the ProviderAccountChanged metric the dashboard publishes on every change of provider
 * or Stripe account, alarmed from the first one, to the stage's alarm topic.
 * Properties as AWS::CloudWatch::Alarm defines them
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-cloudwatch-alarm.html):
 * ComparisonOperator GreaterThanOrEqualToThreshold with Threshold 1 alarms on a single change in
 * the Period; TreatMissingData notBreaching keeps the alarm OK in the (usual) periods without one;
 * AlarmActions are the ARNs notified on the transition to ALARM.
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { MONEY_ROUTING_METRICS } from '../../definitions/metrics';
import { HotelIntegrationStack } from '../../infra/stack';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

const app = testApp();
const stack = new HotelIntegrationStack(app, 'HotelIntegration-money', { stage: 'money' });
const template = mergedTemplate(stack);

describe('ProviderAccountChanged alarm', () => {
  it('alarms on one change of provider account in 5 minutes, to the alarm topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties.AlarmName === 'hotel-integration-money-ProviderAccountChanged',
    );
    expect(alarms).toHaveLength(1);
    const topic = logicalIdOf(stack.monitoring.topic);
    expect(alarms[0]!.Properties).toMatchObject({
      AlarmName: 'hotel-integration-money-ProviderAccountChanged',
      AlarmDescription: expect.stringMatching(/Audit page/),
      Namespace: 'HotelIntegration',
      MetricName: MONEY_ROUTING_METRICS.providerAccountChanged,
      // The dimension Powertools Metrics adds to what the functions publish (shared/observability.ts).
      Dimensions: [{ Name: 'service', Value: 'hotel-integration-api' }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topic }],
    });
  });

  it('is published under the name the dashboard uses', () => {
    expect(MONEY_ROUTING_METRICS.providerAccountChanged).toBe('ProviderAccountChanged');
  });
});
