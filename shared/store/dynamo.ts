/** The DynamoDB document client, created once per container. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { serviceClient } from '../observability';

// Traced for X-Ray (a no-op when tracing is off: locally, in tests). The document client below and
// the idempotency layer share this client's middleware, so their calls are traced too.
export const dynamoClient = serviceClient(
  new DynamoDBClient({
    // The SDK reads AWS_ENDPOINT_URL_DYNAMODB for DynamoDB Local.
    maxAttempts: 3,
    // Fail fast: a stuck call becomes SERVICE_UNAVAILABLE instead of a Lambda timeout.
    requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 },
  }),
);

export const db = DynamoDBDocumentClient.from(dynamoClient, {
  marshallOptions: { removeUndefinedValues: true },
});

export const TABLE = config().tableName;
