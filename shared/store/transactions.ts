/**
 * Writes that happen together or not at all. Each store builds the transaction items of its own
 * entities; a use case that changes several (a booking with its room hold and deliveries, an
 * order with its attempt) gathers them and writes them here, in one TransactWriteItems call.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './dynamo';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export async function transactWrite(items: TransactItem[]): Promise<void> {
  await db.send(new TransactWriteCommand({ TransactItems: items }));
}
