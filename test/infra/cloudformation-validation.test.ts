/**
 * The CDK's built-in CloudFormation validation: aws-cdk-lib checks each template it synthesizes
 * against CloudFormation's resource schemas (types, required and unknown properties, allowed
 * values) and reports what it finds as warnings, which `cdk synth` prints and does not fail on.
 * The other template tests turn it off for speed (test/support/cdk-app.ts); here it runs on the
 * deployed stages, and its report must hold no finding. A stack with known faults shows that the
 * validator runs here and that a finding would fail this test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CfnResource, Stack } from 'aws-cdk-lib';
import { describe, expect, it, vi } from 'vitest';
import { HotelIntegrationStack } from '../../infra/stack';
import { testApp } from '../support/cdk-app';

interface ValidationReport {
  pluginReports: { pluginName: string; violations: { ruleName: string; description: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

/** The findings of the built-in validation over every stack in the app, as "rule path: description". */
function findings(build: (app: ReturnType<typeof testApp>) => void): string[] {
  const app = testApp({ builtinCloudFormationValidation: true });
  build(app);
  const assembly = app.synth();
  // aws-cdk-lib's cx-api VALIDATION_REPORT_FILE.
  const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} ${c.constructPath}: ${v.description}`)),
  );
}

describe("the CDK's built-in CloudFormation validation", () => {
  it('finds the faults of a stack that has them, and prints them as `cdk synth` does', () => {
    // The printed report goes to console.error; kept out of the test output.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let found: string[];
    let output: string;
    try {
      found = findings((app) => {
        const stack = new Stack(app, 'Faulty');
        new CfnResource(stack, 'Queue', { type: 'AWS::SQS::Queue', properties: { VisibilityTimeout: 'soon' } });
        new CfnResource(stack, 'Fn', { type: 'AWS::Lambda::Function', properties: { Runtime: 'nodejs99.x', Handler: 'index.handler' } });
      });
    } finally {
      output = printed.mock.calls.map((call) => String(call[0])).join('\n');
      printed.mockRestore();
    }
    expect(output).toMatch(/Template validation found issues/);
    expect(found.some((f) => f.startsWith('F3012 Faulty/Queue'))).toBe(true);
    expect(found.some((f) => f.startsWith('F3003 Faulty/Fn') && /'Code' is a required property/.test(f))).toBe(true);
    expect(found.some((f) => f.startsWith('W3030 Faulty/Fn'))).toBe(true);
  });

  it('finds nothing in the prod stage, nor in a stage with the sandbox provider', () => {
    const found = findings((app) => {
      new HotelIntegrationStack(app, 'HotelIntegration-prod', { stage: 'prod' });
      new HotelIntegrationStack(app, 'HotelIntegration-test', { stage: 'test', sandboxPayments: true });
    });
    expect(found).toEqual([]);
  }, 120_000);
});
