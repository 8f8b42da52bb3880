/**
 * The deployed shape of CONTRACT.md "Payment safety in deployed stages" (what only AWS runs):
 * the sandbox provider's routes only where a stage turns it on, never in prod; the order
 * reference key readable by the order-creating functions only; the settlement alarms.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes';
import { HotelIntegrationStack, type HotelIntegrationStackProps } from '../../infra/stack';

const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const build = (props: HotelIntegrationStackProps) => {
  const stack = new HotelIntegrationStack(newApp(), `HotelIntegration-${props.stage}`, props);
  return { stack, template: Template.fromStack(stack) };
};
const sandboxRoutes = routes.filter((r) => r.sandbox).map((r) => r.id);

function variables(stack: HotelIntegrationStack, template: Template, fn: { node: { defaultChild?: unknown } }) {
  return template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as CfnElement)].Properties.Environment.Variables;
}

/** The path parts of every API Gateway resource. */
const resourcePaths = (template: Template) => Object.values(template.findResources('AWS::ApiGateway::Resource')).map((r) => r.Properties.PathPart);

describe('the sandbox provider in deployed stages', () => {
  it('is absent from prod: no sandbox function, no /sandbox resource, payment functions told it is off', () => {
    const { stack, template } = build({ stage: 'prod' });
    expect(sandboxRoutes).toEqual(['SandboxCheckoutPage', 'SandboxCheckoutSubmit']);
    for (const id of sandboxRoutes) expect(stack.routeFunctions.has(id)).toBe(false);
    expect(resourcePaths(template)).not.toContain('sandbox');
    expect(JSON.stringify(template.toJSON())).not.toMatch(/sandbox-checkout/);
    for (const id of ['CreatePaymentOrder', 'VerifyPaymentOrder', 'StripeWebhook']) {
      expect(variables(stack, template, stack.routeFunctions.get(id)!).SANDBOX_PAYMENTS).toBe('false');
    }
    template.hasOutput('SandboxPayments', { Value: 'false' });
  });

  it('is absent from any other stage unless it is turned on', () => {
    const off = build({ stage: 'dev' });
    expect(resourcePaths(off.template)).not.toContain('sandbox');
    for (const id of sandboxRoutes) expect(off.stack.routeFunctions.has(id)).toBe(false);

    const on = build({ stage: 'partners', sandboxPayments: true });
    for (const id of sandboxRoutes) expect(on.stack.routeFunctions.has(id)).toBe(true);
    expect(resourcePaths(on.template)).toContain('sandbox');
    expect(variables(on.stack, on.template, on.stack.routeFunctions.get('VerifyPaymentOrder')!).SANDBOX_PAYMENTS).toBe('true');
    on.template.hasOutput('SandboxPayments', { Value: 'true' });
  });

  it('is refused for prod, with the reason', () => {
    expect(() => build({ stage: 'prod', sandboxPayments: true })).toThrow(/sandboxPayments cannot be turned on for the stage "prod".*without money/);
  });

  it('`cdk synth -c stage=prod -c sandboxPayments=true` fails, saying why', () => {
    // What `npx cdk synth` runs (cdk.json's app), with the context the CLI would pass.
    const outdir = mkdtempSync(join(tmpdir(), 'synth-'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'prod', sandboxPayments: 'true', 'aws:cdk:bundling-stacks': [] }) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Cannot synthesize stage "prod": sandboxPayments cannot be turned on for the stage "prod"/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('the local stack\'s stage name cannot be deployed (it would accept http and loopback URLs)', () => {
    expect(() => build({ stage: 'local' })).toThrow(/"local" is the local stack's/);
  });
});

describe('the order reference key', () => {
  const { stack, template } = build({ stage: 'prod' });
  const json = template.toJSON();
  const [secretId] = Object.entries(json.Resources as Record<string, any>).find(
    ([, r]) => r.Type === 'AWS::SecretsManager::Secret' && /order references/.test(r.Properties.Description),
  )!;

  it('is a generated secret kept when the stack is deleted', () => {
    expect(json.Resources[secretId]).toMatchObject({ DeletionPolicy: 'Retain', Properties: { GenerateSecretString: expect.objectContaining({ PasswordLength: 64 }) } });
  });

  it('is named to the order-creating functions only, and only their roles may read it', () => {
    // The payment API's, and the guest booking pages' (opening a checkout creates the client's order).
    const creating = ['CreatePaymentOrder', 'GuestBookingCreate'];
    const sameFunction = (id: string) => creating.some((c) => stack.routeFunctions.get(c) === stack.routeFunctions.get(id));
    const readers = Object.values(json.Resources as Record<string, any>)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((r) => r.Properties.PolicyDocument.Statement.some((s: any) => JSON.stringify(s.Resource) === JSON.stringify({ Ref: secretId })))
      .flatMap((r) => r.Properties.Roles.map((role: any) => role.Ref));
    const roles = creating.map((id) => stack.getLogicalId(stack.routeFunctions.get(id)!.role!.node.defaultChild as CfnElement));
    expect(readers.sort()).toEqual(roles.sort());
    for (const [id, fn] of stack.routeFunctions) {
      const value = variables(stack, template, fn).ORDER_REFERENCE_KEY_SECRET_ARN;
      expect(value === undefined ? 'absent' : id).toBe(sameFunction(id) ? id : 'absent');
    }
  });
});

describe('settlement alarms', () => {
  const { template } = build({ stage: 'prod' });
  it.each([
    ['PaymentCheckoutNotFound', /cannot find the checkout|could not find the checkout/],
    ['PaymentAmountMismatch', /amount or currency/],
  ])('%s alarms the topic on the first occurrence', (metricName, description) => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: metricName,
      Namespace: 'HotelIntegration',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmDescription: Match.stringLikeRegexp(description.source),
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('AlarmTopic') })],
    });
  });
});
