/**
 * Persistence stays in shared/store/ (README "Architecture"): only the stores talk to DynamoDB.
 * Outside them no file imports the DynamoDB SDK or the table's client, and no runtime code
 * builds a command or transaction item (`TableName:`); a use case gathers the items the stores
 * build and writes them with shared/store/transactions.ts. Powertools idempotency's persistence
 * layer is a store too (shared/store/idempotency-store.ts). infra/local/ (the local stack) creates
 * and guards the emulated table itself. Imports are read with TypeScript's own pre-processor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const DYNAMODB_PACKAGES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];
/** The document client and the table's name: only stores send commands with them. */
const TABLE_CLIENT = 'shared/store/dynamo';
/** Where the DynamoDB SDK may be used: the stores, and the local stack's table set-up and guard. */
const ALLOWED = ['shared/store/', 'infra/local/'];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(dir, f).split('\\').join('/'));
}

const allowed = (file: string) => ALLOWED.some((prefix) => file.startsWith(prefix));

/** What `file` imports that only a store may: the DynamoDB SDK, or the store's client module. */
export function persistenceImports(file: string, text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((name) => {
      if (DYNAMODB_PACKAGES.some((pkg) => name === pkg || name.startsWith(`${pkg}/`))) return true;
      return name.startsWith('.') && relative(ROOT, resolve(ROOT, dirname(file), name)).split('\\').join('/') === TABLE_CLIENT;
    });
}

/** Lines of `text` that build a DynamoDB command or transaction item. */
export function tableNameLines(text: string): string[] {
  return text.split('\n').filter((line) => /\bTableName\s*:/.test(line));
}

describe('persistence boundary', () => {
  it('only shared/store/ (and the local stack) imports the DynamoDB SDK or the table client', () => {
    const crossings = ['shared', 'functions', 'definitions', 'infra', 'bin']
      .flatMap(sources)
      .filter((file) => !allowed(file))
      .flatMap((file) => persistenceImports(file, readFileSync(join(ROOT, file), 'utf8')).map((name) => `${file} imports ${name}`));
    expect(crossings).toEqual([]);
  });

  it('no runtime code outside shared/store/ builds a command or transaction item (TableName:)', () => {
    // definitions/ and infra/ name the table as the CDK and CreateTable see it, not to read or write items.
    const builders = ['shared', 'functions', 'bin']
      .flatMap(sources)
      .filter((file) => !allowed(file))
      .flatMap((file) => tableNameLines(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line.trim()}`));
    expect(builders).toEqual([]);
  });

  it('sees static, type-only and dynamic imports, and items built inline (the check itself)', () => {
    const text = [
      "import { PutCommand } from '@aws-sdk/lib-dynamodb';",
      "import type { AttributeValue } from '@aws-sdk/client-dynamodb';",
      "const { marshall } = await import('@aws-sdk/client-dynamodb');",
      "import { db, TABLE } from '../../store/dynamo';",
      "import { keys } from '../../store/keys';",
      'await transactWrite([{ Put: { TableName: TABLE, Item: item } }]);',
    ].join('\n');
    expect(persistenceImports('shared/domain/payments/x.ts', text)).toEqual([
      '@aws-sdk/lib-dynamodb',
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/client-dynamodb',
      '../../store/dynamo',
    ]);
    expect(tableNameLines(text)).toHaveLength(1);
  });
});
