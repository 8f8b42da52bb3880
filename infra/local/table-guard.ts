/**
 * Holds each local function to the table access the stack grants it (definitions/table-access.ts):
 * an SDK middleware on the functions' DynamoDB client refuses, as IAM would, every call the
 * running function has not declared, checking each item of a transaction as the action IAM
 * authorizes it as, and every write's partition key against the prefixes the function declares
 * (dynamodb:LeadingKeys in the stack). The integration tests thereby prove the declarations are
 * enough. Code outside any invocation (test setup, the ops CLI) is not held.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isWriteAction, type TableAccess } from '../../definitions/table-access';
import { tableDefinition } from '../../definitions/table';
import { type LocalFunction, runningFunction } from './lambda-runtime';

/** One authorization IAM makes for a call: an action, on the table or an index, for an item's partition key. */
interface Authorization {
  action: string;
  index?: string;
  partitionKey?: string;
}

type Key = Record<string, unknown> | undefined;
/** The parts of a call's input IAM looks at. */
interface CallInput {
  TransactItems?: { Put?: { Item?: Key }; Update?: { Key?: Key }; Delete?: { Key?: Key }; ConditionCheck?: unknown }[];
  RequestItems?: Record<string, { PutRequest?: { Item?: Key }; DeleteRequest?: { Key?: Key } }[]>;
  IndexName?: string;
  Key?: Key;
  Item?: Key;
}

/** The partition key of a request's key, marshalled ({ S: ... }) or not. */
function partitionKeyOf(key: Key): string | undefined {
  const value = key?.[tableDefinition.partitionKey] as string | { S?: string } | undefined;
  return typeof value === 'string' ? value : value?.S;
}

/** What IAM checks for a call (see the notes in definitions/table-access.ts). */
function authorizationsFor(commandName: string, input: CallInput): Authorization[] {
  const action = commandName.replace(/Command$/, '');
  switch (action) {
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((item): Authorization => {
        if (item.Put) return { action: 'PutItem', partitionKey: partitionKeyOf(item.Put.Item) };
        if (item.Update) return { action: 'UpdateItem', partitionKey: partitionKeyOf(item.Update.Key) };
        if (item.Delete) return { action: 'DeleteItem', partitionKey: partitionKeyOf(item.Delete.Key) };
        return { action: 'ConditionCheckItem' };
      });
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((): Authorization => ({ action: 'GetItem' }));
    case 'Query':
    case 'Scan':
      return [{ action, index: input.IndexName }];
    case 'PutItem':
      return [{ action, partitionKey: partitionKeyOf(input.Item) }];
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ action, partitionKey: partitionKeyOf(input.Key) }];
    case 'BatchWriteItem':
      // One action for the whole request, whose LeadingKeys are every item's partition key.
      return Object.values(input.RequestItems ?? {})
        .flat()
        .map((request): Authorization => ({ action, partitionKey: partitionKeyOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key) }));
    default:
      return [{ action }];
  }
}

/** As the stack's grants (ServiceFunction.grantTableAccess): writes and deletes only under their declared partition-key prefixes. */
function allows(access: TableAccess, { action, index, partitionKey }: Authorization): boolean {
  const under = (prefixes: readonly string[] = []) => partitionKey !== undefined && prefixes.some((prefix) => partitionKey.startsWith(prefix));
  if (index !== undefined) return action === 'Query' && (access.queries ?? []).some((name) => name === index);
  if (action === 'DeleteItem') return under(access.deletes);
  if (!(access.actions as readonly string[]).includes(action)) return false;
  return isWriteAction(action) ? under(access.writes) : true;
}

class AccessDeniedException extends Error {
  override name = 'AccessDeniedException';
  readonly $fault = 'client';
  readonly $metadata = { httpStatusCode: 400 };
}

function denial(fn: LocalFunction, { action, index, partitionKey }: Authorization): AccessDeniedException {
  const resource = `table/${process.env.TABLE_NAME ?? '?'}${index ? `/index/${index}` : ''}`;
  const item = partitionKey === undefined ? '' : ` (partition key ${partitionKey})`;
  return new AccessDeniedException(
    `${fn.name} is not authorized to perform: dynamodb:${action} on resource: ${resource}${item}; ` +
      'it is not in its declared table access (definitions/routes.ts, page-routes.ts, table-access.ts)',
  );
}

const GUARD = 'localTableAccessGuard';

/**
 * Every refusal since the last take, as its message: a function's code may catch the error and
 * only log it (the sweeper did, for a bulk resend it could not continue), so the test stack
 * fails a test file in which any call was refused that the file did not take as expected
 * (test/support/stack.ts).
 */
const refusals: string[] = [];

/** The refusals since the last call, and forgets them. */
export function takeTableRefusals(): string[] {
  return refusals.splice(0);
}

/** Installs the guard on the functions' client (the document client shares its middleware stack). */
export function installTableGuard(client: DynamoDBClient): void {
  client.middlewareStack.remove(GUARD);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const fn = runningFunction();
      if (fn) {
        const refused = authorizationsFor(context.commandName ?? '', args.input as CallInput).find((a) => !allows(fn.tableAccess, a));
        if (refused) {
          const error = denial(fn, refused);
          refusals.push(error.message);
          throw error;
        }
      }
      return next(args);
    },
    // Before anything is sent or retried; keys may be marshalled or not yet (both are read).
    { step: 'serialize', priority: 'high', name: GUARD },
  );
}
