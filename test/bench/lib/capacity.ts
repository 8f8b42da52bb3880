/**
 * An SDK middleware on the functions' DynamoDB client: asks every call for its consumed
 * capacity (ReturnConsumedCapacity TOTAL), sums it and counts calls per command. The document
 * client shares the low-level client's middleware stack, so this sees everything the
 * functions do in-process.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand']);
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
/** Commands that accept ReturnConsumedCapacity. */
const WITH_CAPACITY = new Set([...READS, ...WRITES]);

export interface CapacitySnapshot {
  rcu: number;
  wcu: number;
  calls: number;
  /** Calls per command (without the "Command" suffix), e.g. { Query: 3, PutItem: 1 }. */
  byCommand: Record<string, number>;
  errors: number;
  /** Items DynamoDB read: ScannedCount of queries, items returned by GetItem and BatchGetItem. */
  itemsRead: number;
}

interface ConsumedCapacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

export interface CapacityMeter {
  snapshot(): CapacitySnapshot;
  /** What happened since `before`. */
  since(before: CapacitySnapshot): CapacitySnapshot;
  /** Runs `fn` and returns its result with what it consumed (concurrent calls are counted too). */
  measure<T>(fn: () => Promise<T>): Promise<{ result: T; used: CapacitySnapshot }>;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export function installCapacityMeter(client: DynamoDBClient): CapacityMeter {
  const total: CapacitySnapshot = { rcu: 0, wcu: 0, calls: 0, byCommand: {}, errors: 0, itemsRead: 0 };

  const add = (command: string, consumed: ConsumedCapacity | ConsumedCapacity[] | undefined) => {
    for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
      const units = c.CapacityUnits ?? 0;
      total.rcu += c.ReadCapacityUnits ?? (READS.has(command) ? units : 0);
      total.wcu += c.WriteCapacityUnits ?? (WRITES.has(command) ? units : 0);
    }
  };

  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      const input = args.input as Record<string, unknown>;
      if (WITH_CAPACITY.has(command) && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const name = command.replace(/Command$/, '');
      total.calls++;
      total.byCommand[name] = (total.byCommand[name] ?? 0) + 1;
      try {
        const result = await next(args);
        const output = result.output as {
          ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
          ScannedCount?: number;
          Item?: unknown;
          Responses?: Record<string, unknown[]>;
        };
        add(command, output.ConsumedCapacity);
        if (command === 'QueryCommand' || command === 'ScanCommand') total.itemsRead += output.ScannedCount ?? 0;
        else if (command === 'GetItemCommand') total.itemsRead += output.Item ? 1 : 0;
        else if (command === 'BatchGetItemCommand') {
          for (const items of Object.values(output.Responses ?? {})) total.itemsRead += items.length;
        }
        return result;
      } catch (error) {
        total.errors++;
        throw error;
      }
    },
    // Before serialization, after the document client's marshalling (initialize step).
    { step: 'serialize', priority: 'high', name: 'benchConsumedCapacity', override: true },
  );

  const snapshot = (): CapacitySnapshot => ({ ...total, byCommand: { ...total.byCommand } });
  const since = (before: CapacitySnapshot): CapacitySnapshot => {
    const byCommand: Record<string, number> = {};
    for (const [name, n] of Object.entries(total.byCommand)) {
      const d = n - (before.byCommand[name] ?? 0);
      if (d) byCommand[name] = d;
    }
    return {
      rcu: round(total.rcu - before.rcu),
      wcu: round(total.wcu - before.wcu),
      calls: total.calls - before.calls,
      byCommand,
      errors: total.errors - before.errors,
      itemsRead: total.itemsRead - before.itemsRead,
    };
  };
  return {
    snapshot,
    since,
    async measure(fn) {
      const before = snapshot();
      const result = await fn();
      return { result, used: since(before) };
    },
  };
}

export function formatCommands(byCommand: Record<string, number>): string {
  const entries = Object.entries(byCommand).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([name, n]) => `${name} ${n}`).join(', ') : 'none';
}
