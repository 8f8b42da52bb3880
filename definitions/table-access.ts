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
 * - dynamodb:LeadingKeys limits an action to items whose partition key matches ("Using IAM policy
 *   conditions for fine-grained access control",
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html):
 *   every write grant (PutItem, UpdateItem, BatchWriteItem, DeleteItem) carries it, naming the
 *   partition-key prefixes the function writes (`writes`, `deletes`); reads are not limited.
 * Scan is not declarable: no request path scans (docs/data-model.md).
 */
import type { PartitionPrefix } from './partitions';
import type { IndexName } from './table';
import { REFUND_WRITES } from './route-access';

/** Item actions (and Query on the table itself) a function may call. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'ConditionCheckItem' | 'BatchWriteItem';

/** The actions that write: granted only under the function's `writes` prefixes. */
const WRITE_ACTIONS = ['PutItem', 'UpdateItem', 'BatchWriteItem'] as const satisfies readonly TableAction[];
type WriteAction = (typeof WRITE_ACTIONS)[number];
export const isWriteAction = (action: string): action is WriteAction => (WRITE_ACTIONS as readonly string[]).includes(action);

export interface TableAccess {
  actions: readonly TableAction[];
  /** Indexes it queries. */
  queries?: readonly IndexName[];
  /**
   * The partition-key prefixes (shared/store/keys.ts) its PutItem, UpdateItem and BatchWriteItem
   * (alone or in a transaction) write under; required with any of them.
   */
  writes?: readonly PartitionPrefix[];
  /** DeleteItem (alone or in a transaction), only on items whose partition key starts with one of these. */
  deletes?: readonly PartitionPrefix[];
}

/**
 * Partitions holding only API keys and their bookkeeping (operators live in the user pool, not
 * the table): no public function may write them.
 */
export const KEY_PARTITIONS = ['APIKEY#', 'APIKEYID#', 'USAGEKEY#'] as const satisfies readonly PartitionPrefix[];

/**
 * The partition of client configuration (profile, provider settings, endpoints, linked Stripe
 * accounts, operators' re-auth records), apart from the client's bookings and holds (`CLIENT#`,
 * which the public functions write): no public function, nor the authorizer, may write it.
 */
export const CLIENT_CONFIG_PARTITION = 'CLIENTCONFIG#' as const satisfies PartitionPrefix;

/** The functions behind no route, by handler file under functions/. */
export const supportFunctionAccess = {
  // The presented key by its hash and its client's record (plan, usage key), cached together; the
  // key's last use, at most every 5 minutes.
  authorizer: { actions: ['GetItem', 'UpdateItem'], writes: ['APIKEY#'] },
  // A delivery and the client's endpoint by key; lease, attempt and re-enqueue (each moving the
  // delivery on the due index) by conditional update.
  'send-callback': { actions: ['GetItem', 'UpdateItem'], writes: ['DELIVERY#'] },
  // Due deliveries from the sparse gsi1 index; each moved to its resend-after time once enqueued.
  // Due guest e-mails from the same index; each claimed (UpdateItem answering the e-mail: no
  // read), then marked sent, failed or expired. Open bulk resends from gsi1, each claimed by
  // UpdateItem; the deliveries they name from the index each walks (gsi4: one endpoint's, the
  // receivers' replay; gsi2: all of a client's, the operators' "retry all"), each marked due by
  // conditional UpdateItem. The refunds nobody finished (shared/domain/payments/refunds.ts
  // driveDueRefunds), from gsi1, as refunding does (REFUND_WRITES): GetItem and Query of the
  // order, its refunds and the sandbox's; Put and Update of the settled refund with its
  // transaction, webhook delivery and e-mail.
  'sweep-deliveries': { actions: ['UpdateItem', 'GetItem', 'Query', 'PutItem'], queries: ['gsi1', 'gsi2', 'gsi4'], writes: REFUND_WRITES },
} as const satisfies Record<string, TableAccess>;

export type SupportFunction = keyof typeof supportFunctionAccess;
