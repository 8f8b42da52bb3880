/**
 * Files that do one job: no source file of the service (the Lambda code, the definitions, the CDK
 * app and the local stack, the entry points) is longer than 400 lines. A file that grows past it
 * is split along its jobs, not trimmed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const TREES = ['shared', 'functions', 'definitions', 'infra', 'bin'];
const MAX_LINES = 400;

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines each (${TREES.join('/, ')}/)`, () => {
    const files = TREES.flatMap((tree) =>
      readdirSync(join(ROOT, tree), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(ts|tsx|mts|cts)$/.test(f))
        .map((f) => join(tree, f)),
    );
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
