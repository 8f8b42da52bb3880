/**
 * The deployed shape of docs/behaviour.md "Payment safety in deployed stages" (what only AWS runs):
 * the sandbox provider's routes only where a stage turns it on, never in prod, and then on an
 * origin of their own (a function URL), never the API's; the order reference key readable by the
 * order-creating functions only; the settlement alarms.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes, sandboxRoutes as sandboxRouteTable } from '../../definitions/routes';
import { HotelIntegrationStack } from '../../infra/stack';
import type { HotelIntegrationStackProps } from '../../infra/stage-settings';
import { testApp } from '../support/cdk-app';
import type { IConstruct } from 'constructs';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

const newApp = () => testApp();
const build = (props: HotelIntegrationStackProps) => {
  const stack = new HotelIntegrationStack(newApp(), `HotelIntegration-${props.stage}`, props);
  return { stack, template: mergedTemplate(stack) };
};
const sandboxRoutes = sandboxRouteTable.map((r) => r.id);

function variables(stack: HotelIntegrationStack, template: Template, fn: IConstruct) {
  return template.toJSON().Resources[logicalIdOf(fn)].Properties.Environment.Variables;
}

/** The path parts of every API Gateway resource. */
const resourcePaths = (template: Template) => Object.values(template.findResources('AWS::ApiGateway::Resource')).map((r) => r.Properties.PathPart);

describe('the sandbox provider in deployed stages', () => {
  it('is absent from prod: no sandbox function, no /sandbox resource, payment functions told it is off', () => {
    const { stack, template } = build({ stage: 'prod' });
    expect(sandboxRoutes).toEqual(['SandboxCheckoutPage', 'SandboxCheckoutSubmit']);
    for (const id of sandboxRoutes) expect(stack.routeFunctions.has(id)).toBe(false);
    expect(resourcePaths(template)).not.toContain('sandbox');
    expect(resourcePaths(template)).not.toContain('checkout');
    expect(JSON.stringify(template.toJSON())).not.toMatch(/sandbox-checkout|SANDBOX_BASE_URL/);
    template.resourceCountIs('AWS::Lambda::Url', 0);
    expect(stack.sandboxCheckoutUrl).toBeUndefined();
    for (const id of ['CreatePaymentOrder', 'VerifyPaymentOrder', 'StripeWebhook']) {
      expect(variables(stack, template, stack.routeFunctions.get(id)!).SANDBOX_PAYMENTS).toBe('false');
    }
    template.hasOutput('SandboxPayments', { Value: 'false' });
  });

  it('is absent from any other stage unless it is turned on', () => {
    const off = build({ stage: 'dev' });
    expect(resourcePaths(off.template)).not.toContain('sandbox');
    for (const id of sandboxRoutes) expect(off.stack.routeFunctions.has(id)).toBe(false);
    off.template.resourceCountIs('AWS::Lambda::Url', 0);

    const on = build({ stage: 'partners', sandboxPayments: true });
    for (const id of sandboxRoutes) expect(on.stack.routeFunctions.has(id)).toBe(true);
    // One function serves the sandbox's whole origin, and the API never serves it.
    expect(new Set(sandboxRoutes.map((id) => on.stack.routeFunctions.get(id))).size).toBe(1);
    expect(resourcePaths(on.template)).not.toContain('sandbox');
    expect(resourcePaths(on.template)).not.toContain('checkout');
    expect(variables(on.stack, on.template, on.stack.routeFunctions.get('VerifyPaymentOrder')!).SANDBOX_PAYMENTS).toBe('true');
    on.template.hasOutput('SandboxPayments', { Value: 'true' });
  });

  /**
   * Its own origin: a Lambda function URL (AWS::Lambda::Url,
   * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-lambda-url.html)
   * on the sandbox checkout function, AuthType NONE ("Set to NONE if you want to bypass IAM
   * authentication to create a public endpoint"): a guest's browser opens it, as a provider's
   * hosted page. Public invocation is granted through the URL only (lambda:InvokeFunctionUrl with
   * lambda:FunctionUrlAuthType NONE, and lambda:InvokeFunction only via the function URL).
   */
  it('is served on a public function URL of its own when turned on, and the functions that open checkouts are told its URL', () => {
    const { stack, template } = build({ stage: 'partners', sandboxPayments: true });
    const json = template.toJSON() as { Resources: Record<string, { Type: string; Properties: any }>; Outputs: Record<string, any> };
    const fn = stack.routeFunctions.get('SandboxCheckoutPage')!;
    const functionId = logicalIdOf(fn);
    const urls = Object.entries(json.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Url');
    expect(urls).toHaveLength(1);
    const [urlId, url] = urls[0]!;
    expect(url.Properties).toEqual({ AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': [functionId, 'Arn'] } });
    expect(logicalIdOf(stack.sandboxCheckoutUrl!)).toBe(urlId);
    // Anyone may invoke it, through its URL only.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
      Principal: '*',
      FunctionUrlAuthType: 'NONE',
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
      Principal: '*',
      InvokedViaFunctionUrl: true,
    });
    // No other function has a URL, or a public permission.
    const publicPermissions = Object.values(json.Resources).filter((r) => r.Type === 'AWS::Lambda::Permission' && r.Properties.Principal === '*');
    expect(publicPermissions).toHaveLength(2);
    expect(publicPermissions.every((p) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [functionId, 'Arn'] }))).toBe(true);

    // Its URL reaches the functions that open checkouts (the payment API's and the guest pages',
    // whose CSP names it), and no other; the sandbox function reads sessions, never its own URL.
    const urlAttribute = { 'Fn::GetAtt': [urlId, 'FunctionUrl'] };
    const openers = ['CreatePaymentOrder', 'GuestBookingCreate'];
    for (const [id, routeFn] of stack.routeFunctions) {
      const value = variables(stack, template, routeFn).SANDBOX_BASE_URL;
      const opens = openers.some((opener) => stack.routeFunctions.get(opener) === routeFn);
      expect(value, id).toEqual(opens ? urlAttribute : undefined);
    }
    expect(variables(stack, template, fn)).toMatchObject({ SANDBOX_PAYMENTS: 'true' });
    template.hasOutput('SandboxCheckoutUrl', { Value: urlAttribute });
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
    rmSync(outdir, { recursive: true, force: true });
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
    const roles = creating.map((id) => logicalIdOf(stack.routeFunctions.get(id)!.role!));
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
