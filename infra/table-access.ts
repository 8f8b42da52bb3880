/**
 * What a function may do on the single table: the DynamoDB actions its use case calls, nothing
 * more. Routes declare theirs in the route table (`access.dynamodb`); the functions behind no
 * route declare theirs below. The stack grants exactly this (ServiceFunction.grantTableAccess)
 * and the local stack refuses anything else (infra/local/table-guard.ts), so the integration
 * tests prove each declaration is enough.
 *
 * How IAM authorizes DynamoDB calls, which the declarations follow:
 * - TransactWriteItems and TransactGetItems are no actions of their own: each item is authorized
 *   as the PutItem, UpdateItem, DeleteItem, ConditionCheckItem or GetItem it is
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html).
 * - BatchGetItem and BatchWriteItem are actions of their own; BatchWriteItem also allows its
 *   delete requests, so it is for keyed sync routes only.
 * - A Query on an index is authorized on the index's ARN (`<table>/index/<name>`), not the table's
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/iam-policy-specific-table-indexes.html).
 * - dynamodb:LeadingKeys limits an action to items whose partition key matches: every DeleteItem
 *   grant carries it
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
 * Scan is not declarable: no request path scans (docs/data-model.md).
 */
import type { IndexName } from './table-definition';

/** Item actions (and Query on the table itself) a function may call on any item. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'ConditionCheckItem' | 'BatchWriteItem';

/**
 * Partition-key prefixes a function may delete under (shared/store/keys.ts builds the keys):
 * `IDEMPOTENCY#` holds Powertools' records, `CLIENT#` a client's property data.
 */
export type DeletablePartition = 'IDEMPOTENCY#' | 'CLIENT#';

export interface TableAccess {
  actions: readonly TableAction[];
  /** Indexes it queries. */
  queries?: readonly IndexName[];
  /** DeleteItem (alone or in a transaction), only on items whose partition key starts with one of these. */
  deletes?: readonly DeletablePartition[];
}

/** The functions behind no route, by handler file under functions/. */
export const supportFunctionAccess = {
  // The presented key by its hash and its client's record (plan, usage key), cached together; the
  // key's last use, at most every 5 minutes.
  authorizer: { actions: ['GetItem', 'UpdateItem'] },
  // A delivery and the client's endpoint by key; lease, attempt and re-enqueue (each moving the
  // delivery on the due index) by conditional update.
  'send-callback': { actions: ['GetItem', 'UpdateItem'] },
  // Due deliveries from the sparse gsi1 index; each moved to its resend-after time once enqueued.
  'sweep-deliveries': { actions: ['UpdateItem'], queries: ['gsi1'] },
} as const satisfies Record<string, TableAccess>;

export type SupportFunction = keyof typeof supportFunctionAccess;
