/**
 * Template assertions for the callback pipeline's bounds: the sender's event source runs at
 * most `callbackQueue.maxConcurrency` batches at once (the local poller applies the same
 * number), and the queue's settings stay consistent with the sender's timeout. Bundling is
 * skipped (aws:cdk:bundling-stacks).
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { callbackQueue } from '../../definitions/queues';
import { HotelIntegrationStack } from '../../infra/stack';
import { testApp } from '../support/cdk-app';
import type { IConstruct } from 'constructs';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

const app = testApp();
const stack = new HotelIntegrationStack(app, 'HotelIntegration-prod', { stage: 'prod' });
const template = mergedTemplate(stack);
const logicalId = (construct: IConstruct) => logicalIdOf(construct);

describe("the sender's event source", () => {
  it('has MaximumConcurrency set to the shared definition, within what Lambda allows (2 to 1,000)', () => {
    expect(callbackQueue.maxConcurrency).toBeGreaterThanOrEqual(2);
    expect(callbackQueue.maxConcurrency).toBeLessThanOrEqual(1000);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.callbacks.queue), 'Arn'] },
      FunctionName: { Ref: logicalId(stack.callbackSenderFunction) },
      ScalingConfig: { MaximumConcurrency: callbackQueue.maxConcurrency },
      BatchSize: callbackQueue.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('keeps the queue visibility timeout at least six times the sender timeout, and no reserved concurrency below the bound', () => {
    const sender = template.toJSON().Resources[logicalId(stack.callbackSenderFunction)].Properties;
    const queue = template.toJSON().Resources[logicalId(stack.callbacks.queue)].Properties;
    expect(queue.VisibilityTimeout).toBe(callbackQueue.visibilityTimeoutSeconds);
    expect(callbackQueue.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * sender.Timeout);
    // Reserved concurrency under the bound would throttle the mapping's invocations (AWS: keep it >= maximum concurrency).
    if (sender.ReservedConcurrentExecutions !== undefined) expect(sender.ReservedConcurrentExecutions).toBeGreaterThanOrEqual(callbackQueue.maxConcurrency);
  });
});
