/**
 * Where code may import from (README "Architecture"): `definitions/` is plain data read by every
 * tree and imports none of them; `shared/` and `functions/` (the Lambda code) never import
 * `infra/` (the CDK app and the local stack), so a function's bundle never pulls in aws-cdk-lib or
 * the emulators. Every import, static or dynamic, is read with TypeScript's own pre-processor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

/** Trees and the trees each may not import. */
const FORBIDDEN: Record<string, readonly string[]> = {
  definitions: ['shared', 'functions', 'infra', 'bin', 'test'],
  shared: ['infra', 'functions', 'bin', 'test'],
  functions: ['infra', 'bin', 'test'],
};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(dir, f));
}

/** Each relative import of `file` as the top-level tree it lands in, with the line that says it. */
export function importedTrees(file: string, text: string): { tree: string; specifier: string }[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => ({ specifier: fileName, tree: relative(ROOT, resolve(ROOT, dirname(file), fileName)).split(/[\\/]/)[0]! }));
}

describe('import boundaries', () => {
  for (const [tree, forbidden] of Object.entries(FORBIDDEN)) {
    it(`nothing under ${tree}/ imports ${forbidden.join(', ')}`, () => {
      const crossings = sources(tree).flatMap((file) =>
        importedTrees(file, readFileSync(join(ROOT, file), 'utf8'))
          .filter(({ tree: target }) => forbidden.includes(target))
          .map(({ specifier }) => `${file} imports ${specifier}`),
      );
      expect(crossings).toEqual([]);
    });
  }

  it('sees static, type-only and dynamic imports alike (the check itself)', () => {
    const text = [
      "import { a } from '../../infra/stack';",
      "import type { B } from '../../infra/local/stack';",
      "const c = await import('../../infra/bundling');",
      "export { d } from '../config';",
    ].join('\n');
    expect(importedTrees('shared/ops/x.ts', text).map((i) => i.tree)).toEqual(['infra', 'infra', 'infra', 'shared']);
  });
});
