/**
 * A CDK app for a template test: asset bundling skipped (the tests read the template, not the
 * code), and its cloud assembly written under one folder per test file, removed when the file
 * ends. An App without an outdir writes ~1.4 MB to a new temporary folder on every synth and
 * never removes it: a run of the template tests left 70 of them behind.
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
  return new App({ ...props, outdir: mkdtempSync(join(root, 'app-')), context: { 'aws:cdk:bundling-stacks': [], ...props.context } });
}
