import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { indexProjection, tableDefinition } from '../../definitions/table';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

/** The single table, built from the shared definition the local stack uses too. */
export class ServiceTable extends Table {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      partitionKey: stringKey(tableDefinition.partitionKey),
      sortKey: stringKey(tableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      encryption: TableEncryption.AWS_MANAGED,
      // Clients, keys, bookings and payment records must survive a stack deletion, and a
      // DeleteTable call by anyone until an operator turns protection off
      // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithTables.Basics.html#WorkingWithTables.Basics.DeletionProtection).
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      const projection = indexProjection(index);
      this.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        ...(projection.ProjectionType === 'INCLUDE'
          ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: projection.NonKeyAttributes }
          : { projectionType: ProjectionType.KEYS_ONLY }),
      });
    }
  }
}
