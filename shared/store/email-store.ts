/**
 * E-mails to guests (docs/behaviour.md "Guest booking and the reception QR code"): an outbox on the
 * single table. An e-mail is written in the transaction of what it tells (the booking's
 * confirmation, the pay-at-the-hotel booking waiting for its link), sent after the commit, and
 * marked sent; while it is not sent it keeps its message and an entry on the sparse due index
 * (gsi1 `EMAILS#DUE`), where the sweeper finds one whose send failed or never happened.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { fromItem, isConditionFailure } from './items';
import type { TransactItem } from './transactions';

export type EmailKind = 'booking_confirmation' | 'confirm_booking' | 'booking_modified' | 'booking_cancelled' | 'refund';

/**
 * `pending`: not tried yet; `retrying`: a try failed, another is due; `sent`; `failed`: every
 * retry failed, no more; `expired`: a "Confirm your booking" e-mail whose link had ended before
 * it could be sent.
 */
export type EmailStatus = 'pending' | 'retrying' | 'sent' | 'failed' | 'expired';

export interface EmailRecord {
  email_id: string;
  client_id: string;
  /** The booking it is about (a pay-at-the-hotel booking waiting for its link: the one it will be). */
  booking_id: string;
  kind: EmailKind;
  to: string;
  /** The sender's display name (the hotel's); the address is the stage's identity when it is sent. */
  from_name: string;
  /** The hotel's e-mail, the Reply-To of the message, where it has one. */
  reply_to?: string;
  subject: string;
  /** The message, until it is sent or given up: its links are the guest's alone. */
  html?: string;
  text?: string;
  status: EmailStatus;
  /** Tries made. */
  attempts: number;
  last_error?: string;
  last_attempt_at?: string;
  /** While not sent: when the next try is due (the sweeper's time on the due index). */
  due_at?: string;
  /** No try after this time: what it says no longer holds (the link of a pay-at-the-hotel booking has ended). */
  send_before?: string;
  sent_at?: string;
  message_id?: string;
  created_at: string;
  updated_at: string;
}

/** The transaction item writing a new e-mail, due on the index at its `due_at`; written once. */
export function emailPutItem(record: EmailRecord): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.email(record.email_id), ...keys.emailDue(record.due_at!, record.email_id), entity: 'email', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getEmail(emailId: string): Promise<EmailRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.email(emailId), ConsistentRead: true }));
  return Item ? fromItem<EmailRecord>(Item) : undefined;
}

const WAITING = { ':pending': 'pending', ':retrying': 'retrying' };

/** Runs a conditional update; false when its condition failed (another try got there first). */
async function conditionalUpdate(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> {
  try {
    await db.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The e-mail was sent: off the due index, its message dropped (its links stay the guest's alone). */
export function markEmailSent(emailId: string, at: string, messageId: string): Promise<boolean> {
  return conditionalUpdate({
    TableName: TABLE,
    Key: keys.email(emailId),
    UpdateExpression: 'SET #status = :sent, sent_at = :at, message_id = :id, attempts = attempts + :one, last_attempt_at = :at, updated_at = :at REMOVE gsi1pk, gsi1sk, due_at, html, #text',
    ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :retrying)',
    ExpressionAttributeNames: { '#status': 'status', '#text': 'text' },
    ExpressionAttributeValues: { ':sent': 'sent', ':at': at, ':id': messageId, ':one': 1, ...WAITING },
  });
}

/**
 * A try failed: due again at `retryAt` (on the due index), or, without one, given up (`failed`,
 * off the index, the message dropped).
 */
export function markEmailFailed(emailId: string, at: string, error: string, retryAt: string | undefined): Promise<boolean> {
  const common = {
    TableName: TABLE,
    Key: keys.email(emailId),
    ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :retrying)',
  };
  if (retryAt) {
    const due = keys.emailDue(retryAt, emailId);
    return conditionalUpdate({
      ...common,
      UpdateExpression: 'SET #status = :retrying, attempts = attempts + :one, last_error = :error, last_attempt_at = :at, updated_at = :at, due_at = :due, gsi1pk = :duePk, gsi1sk = :dueSk',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':error': error, ':at': at, ':due': retryAt, ':duePk': due.gsi1pk, ':dueSk': due.gsi1sk, ...WAITING },
    });
  }
  return conditionalUpdate({
    ...common,
    UpdateExpression: 'SET #status = :failed, attempts = attempts + :one, last_error = :error, last_attempt_at = :at, updated_at = :at REMOVE gsi1pk, gsi1sk, due_at, html, #text',
    ExpressionAttributeNames: { '#status': 'status', '#text': 'text' },
    ExpressionAttributeValues: { ':failed': 'failed', ':one': 1, ':error': error, ':at': at, ...WAITING },
  });
}

/** An e-mail past its `send_before`: never sent, off the index, its message dropped. */
export function markEmailExpired(emailId: string, at: string): Promise<boolean> {
  return conditionalUpdate({
    TableName: TABLE,
    Key: keys.email(emailId),
    UpdateExpression: 'SET #status = :expired, updated_at = :at REMOVE gsi1pk, gsi1sk, due_at, html, #text',
    ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :retrying)',
    ExpressionAttributeNames: { '#status': 'status', '#text': 'text' },
    ExpressionAttributeValues: { ':expired': 'expired', ':at': at, ...WAITING },
  });
}

/**
 * Claims a due e-mail for one try: moves it on the due index from where the sweeper read it
 * (`indexedAt`) to `leaseUntil`, so no other sweep tries it meanwhile, and answers the e-mail as
 * it now stands, message included (no read before the claim). Undefined when another try moved
 * it first, or it is no longer waiting.
 */
export async function claimDueEmail(emailId: string, indexedAt: string, leaseUntil: string): Promise<EmailRecord | undefined> {
  const due = keys.emailDue(leaseUntil, emailId);
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.email(emailId),
        UpdateExpression: 'SET due_at = :lease, gsi1sk = :dueSk',
        ConditionExpression: 'gsi1sk = :indexed AND #status IN (:pending, :retrying)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':lease': leaseUntil, ':dueSk': due.gsi1sk, ':indexed': keys.emailDue(indexedAt, emailId).gsi1sk, ...WAITING },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem<EmailRecord>(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** An e-mail due on the index, as its entry names it. */
export interface DueEmail {
  email_id: string;
  /** Its time on the index. */
  due_at: string;
}

/** One page of the due e-mails at `now`, oldest first; reads the index's sort key only. */
export async function findDueEmails(now: string, page: { limit: number; cursor?: Record<string, unknown> }): Promise<{ due: DueEmail[]; cursor?: Record<string, unknown> }> {
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :until',
      ExpressionAttributeValues: { ':pk': keys.emailsDue, ':until': keys.emailDueUntil(now) },
      ProjectionExpression: 'gsi1sk',
      Limit: page.limit,
      ExclusiveStartKey: page.cursor,
    }),
  );
  return {
    due: Items.map((item) => {
      const entry = keys.emailDueEntry(item.gsi1sk as string);
      return { email_id: entry.emailId, due_at: entry.dueAt };
    }),
    cursor: LastEvaluatedKey,
  };
}

/** The times "Confirm your booking" e-mails were sent to an address (its keyed hash), and the item's version. */
export async function getConfirmEmailsTo(addressHash: string): Promise<{ sentAt: string[]; version: number }> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.confirmEmailsTo(addressHash), ConsistentRead: true }));
  return { sentAt: (Item?.sent_at as string[] | undefined) ?? [], version: (Item?.version as number | undefined) ?? 0 };
}

/**
 * The address's send times as they now stand, written only if nobody wrote them since they were
 * read at `readVersion` (two bookings racing for a 4th e-mail: one wins). The TTL attribute lets
 * AWS remove the item an hour after its last e-mail.
 */
export function confirmEmailsToPutItem(addressHash: string, sentAt: readonly string[], readVersion: number, expiresAt: string): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.confirmEmailsTo(addressHash), entity: 'confirm_emails_to', sent_at: sentAt, version: readVersion + 1, expires_at: Math.ceil(Date.parse(expiresAt) / 1000) },
      ConditionExpression: readVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :read',
      ...(readVersion === 0 ? {} : { ExpressionAttributeValues: { ':read': readVersion } }),
    },
  };
}
