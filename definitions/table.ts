/**
 * The single table, described once. The CDK table construct and the local stack's
 * CreateTable both read this, so key names and indexes cannot drift apart.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes expired items. DynamoDB Local never does: code checks it too. */
  timeToLiveAttribute: 'expires_at',
  /**
   * Each index projects its keys (and the table's) plus only the attributes its queries read
   * (docs/data-model.md, "Index projections"); a query that needs whole items reads the keys
   * here and the items from the table. Nothing else is copied: no guest data on any index.
   */
  globalSecondaryIndexes: [
    {
      indexName: 'gsi1',
      partitionKey: 'gsi1pk',
      sortKey: 'gsi1sk',
      // Active stays of a client (availability): which room, whether still active, which nights.
      // The other queries of gsi1 read keys only: due deliveries (the sweeper reads gsi1sk), a
      // client's keys and every client (the records come from the table).
      projectedAttributes: ['room_id', 'status', 'check_in_date', 'check_out_date'],
    },
    {
      indexName: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      // Active stays of a room (sync conflicts, service bookings): which booking, whether still
      // active, which nights. A client's deliveries filter on `status` too; their records come
      // from the table.
      projectedAttributes: ['id', 'room_id', 'status', 'check_in_date', 'check_out_date'],
    },
    {
      indexName: 'gsi3',
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      // Every booking of a client in check-in order (the Bookings list): its sort key names the
      // check-in and the booking, these three what the list's filters read; the bookings
      // themselves come from the table.
      projectedAttributes: ['check_out_date', 'status', 'origin'],
    },
    {
      indexName: 'gsi4',
      partitionKey: 'gsi4pk',
      sortKey: 'gsi4sk',
      // A client's deliveries of one endpoint (callbacks or webhooks) in creation order: the
      // deliveries API's list and replay filter on these two; the records come from the table.
      projectedAttributes: ['status', 'event'],
    },
  ],
} as const;

export type IndexName = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName'];

/** The projection of an index: INCLUDE of its attributes, KEYS_ONLY when it needs none. */
export function indexProjection(index: (typeof tableDefinition.globalSecondaryIndexes)[number]) {
  return index.projectedAttributes.length
    ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projectedAttributes] }
    : { ProjectionType: 'KEYS_ONLY' as const };
}

/** CreateTable input for DynamoDB Local (on-demand, all string keys, the indexes' own projections). */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, globalSecondaryIndexes } = tableDefinition;
  const keyNames = [partitionKey, sortKey, ...globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: globalSecondaryIndexes.map(globalSecondaryIndexInput),
  };
}

/** One index as CreateTable and UpdateTable take it. */
export function globalSecondaryIndexInput(index: (typeof tableDefinition.globalSecondaryIndexes)[number]) {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: indexProjection(index),
  };
}
