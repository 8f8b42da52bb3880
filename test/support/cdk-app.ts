/**
 * A CDK app for a template test: asset bundling skipped (the tests read the template, not the
 * code), and its cloud assembly written under one folder per test file, removed when the file
 * ends. An App without an outdir writes ~1.4 MB to a new temporary folder on every synth and
 * never removes it: a run of the template tests left 70 of them behind.
 *
 * The CDK's built-in CloudFormation validation (a WebAssembly validator aws-cdk-lib runs on every
 * template it synthesizes) is off here: measured on this machine, a process's first synth of the
 * stack took 11.1 CPU-s with it and 2.1 without (compiling the validator), and each later synth
 * 1.7-2.5 against 0.7-1.1. test/infra/cloudformation-validation.test.ts runs it on the deployed
 * stages, and `cdk synth` (bin/app.ts) keeps it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type AppProps } from 'aws-cdk-lib';
import { afterAll } from 'vitest';

let root: string | undefined;
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

export function testApp(props: AppProps = {}): App {
  root ??= mkdtempSync(join(tmpdir(), 'cdk-test-'));
  return new App({
    builtinCloudFormationValidation: false,
    ...props,
    outdir: mkdtempSync(join(root, 'app-')),
    context: { 'aws:cdk:bundling-stacks': [], ...props.context },
  });
}
