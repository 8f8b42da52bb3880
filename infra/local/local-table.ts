/**
 * The local table from the stack's definition (definitions/table.ts), with an existing table's
 * indexes brought in line with it.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../definitions/local-stack';
import { createTableInput, globalSecondaryIndexInput, indexProjection, tableDefinition } from '../../definitions/table';

/**
 * Creates the table from the stack's definition. An existing table (a `LOCAL_DATA_DIR` from an
 * earlier version) is kept, and any index whose projection differs from the definition is
 * rebuilt: DynamoDB cannot change a projection in place, so the index is deleted and created
 * again, and DynamoDB Local backfills it from the table.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await reconcileIndexes(client, tableName);
  } finally {
    client.destroy();
  }
}

const sameProjection = (index: (typeof tableDefinition.globalSecondaryIndexes)[number], existing: GlobalSecondaryIndexDescription | undefined) => {
  const want = indexProjection(index);
  const have = existing?.Projection;
  const attributes = (names: readonly string[] | undefined) => [...(names ?? [])].sort().join(',');
  return have?.ProjectionType === want.ProjectionType && attributes(have.NonKeyAttributes) === attributes('NonKeyAttributes' in want ? want.NonKeyAttributes : []);
};

async function reconcileIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const indexes = async () => (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.GlobalSecondaryIndexes ?? [];
  const until = async (what: string, done: (current: GlobalSecondaryIndexDescription[]) => boolean) => {
    for (const deadline = Date.now() + 120_000; !done(await indexes()); ) {
      if (Date.now() > deadline) throw new Error(`table ${tableName}: ${what} took over 2 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  for (const index of tableDefinition.globalSecondaryIndexes) {
    const existing = (await indexes()).find((i) => i.IndexName === index.indexName);
    if (existing && sameProjection(index, existing)) continue;
    if (existing) {
      await client.send(new UpdateTableCommand({ TableName: tableName, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: index.indexName } }] }));
      await until(`deleting ${index.indexName}`, (current) => !current.some((i) => i.IndexName === index.indexName));
    }
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
        GlobalSecondaryIndexUpdates: [{ Create: globalSecondaryIndexInput(index) }],
      }),
    );
    await until(`building ${index.indexName}`, (current) => current.find((i) => i.IndexName === index.indexName)?.IndexStatus === 'ACTIVE');
  }
}
