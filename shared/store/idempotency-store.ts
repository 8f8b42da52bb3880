/**
 * Where Powertools idempotency keeps its records: the single table, one partition per idempotency
 * key (its own layout would put every record in one static partition). Loaded with Powertools by
 * the first request that carries an Idempotency-Key (shared/http/idempotency.ts).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../../definitions/table';
import { dynamoClient, TABLE } from './dynamo';
import { keys } from './keys';

export async function idempotencyPersistenceStore() {
  const { DynamoDBPersistenceLayer } = await import('@aws-lambda-powertools/idempotency/dynamodb');

  class SingleTablePersistence extends DynamoDBPersistenceLayer {
    protected override getKey(idempotencyKey: string): Record<string, AttributeValue> {
      return {
        [tableDefinition.partitionKey]: { S: idempotencyKey },
        [tableDefinition.sortKey]: { S: keys.idempotency.sortKey },
      };
    }
  }

  return new SingleTablePersistence({
    tableName: TABLE,
    keyAttr: tableDefinition.partitionKey,
    sortKeyAttr: tableDefinition.sortKey,
    expiryAttr: tableDefinition.timeToLiveAttribute,
    awsSdkV3Client: dynamoClient,
  });
}
