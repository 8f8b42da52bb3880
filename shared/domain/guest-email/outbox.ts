/**
 * E-mail to guests, never in the way of a booking (docs/behaviour.md "Guest booking and the reception
 * QR code": a failed send never fails the booking; it is retried and visible to staff). An e-mail
 * is an outbox record written in the transaction of what it tells (shared/store/email-store.ts),
 * sent by the function that wrote it once that committed, and marked sent. A send that fails, or
 * never happens (the function died first), is tried again by the sweeper from the due index,
 * EMAIL_RETRY_DELAYS_SECONDS apart, then given up; the dashboard's booking page shows which.
 */
import { emailEnabled, sendEmail } from '../../email/ses';
import { type EmailMessage, type HotelContact, withHotelContact } from '../../guest/emails';
import type { Translate } from '../../i18n/translator';
import { guestEmailId } from './email-ids';
import { logger } from '../../observability';
import { mapConcurrent } from '../../store/batch';
import {
  claimDueEmail,
  type EmailKind,
  type EmailRecord,
  emailPutItem,
  findDueEmails,
  getEmail,
  markEmailExpired,
  markEmailFailed,
  markEmailSent,
} from '../../store/email-store';
import type { TransactItem } from '../../store/transactions';

export { emailEnabled };

/**
 * How long the function that wrote an e-mail has to send it before the sweeper may try: the
 * e-mail is written due this far ahead. Also how long a sweep's claim on one keeps others off it.
 */
export const SEND_LEASE_MS = 2 * 60_000;

/** The waits before each new try of a failed send: 7 tries over about 10 hours, then given up. */
export const EMAIL_RETRY_DELAYS_SECONDS: readonly number[] = [60, 300, 900, 3_600, 3 * 3_600, 6 * 3_600];

/** E-mails tried at once by a sweep, and at most per run (SES's default sending rate is 14 a second). */
const SWEEP_CONCURRENCY = 4;
const SWEEP_PAGE_SIZE = 25;
const SWEEP_MAX_PER_RUN = 200;

export { guestEmailId };

/** A new outbox e-mail, due on the index SEND_LEASE_MS after `now` (the writer sends it first). */
export function newGuestEmail(input: {
  clientId: string;
  bookingId: string;
  kind: EmailKind;
  to: string;
  fromName: string;
  /** The hotel's phone and e-mail: every guest e-mail shows those set (in the message's words), and replies go to the e-mail. */
  contact?: { of: HotelContact; words: Translate };
  message: EmailMessage;
  now: Date;
  /** No try after this time. */
  sendBefore?: string;
  /** Kinds a booking may get more than once (a change, a refund): what makes this one's id its own (the event's sequence, the refund id). */
  occasion?: string;
}): EmailRecord {
  const at = input.now.toISOString();
  return {
    email_id: guestEmailId(input.clientId, input.bookingId, input.kind, input.occasion),
    client_id: input.clientId,
    booking_id: input.bookingId,
    kind: input.kind,
    to: input.to,
    from_name: input.fromName,
    ...(input.contact?.of.email ? { reply_to: input.contact.of.email } : {}),
    ...(input.contact ? withHotelContact(input.contact.words, input.message, input.fromName, input.contact.of) : input.message),
    status: 'pending',
    attempts: 0,
    due_at: new Date(input.now.getTime() + SEND_LEASE_MS).toISOString(),
    ...(input.sendBefore ? { send_before: input.sendBefore } : {}),
    created_at: at,
    updated_at: at,
  };
}

/** The transaction item writing the e-mail with what it tells. */
export const guestEmailItem = (email: EmailRecord): TransactItem => emailPutItem(email);

const errorText = (error: unknown) => {
  const e = error as Error;
  return `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`.slice(0, 500);
};

/** The next try's time after the `tries`-th failed one, or undefined when none is left. */
function retryAfter(tries: number, at: Date): string | undefined {
  const delay = EMAIL_RETRY_DELAYS_SECONDS[tries - 1];
  return delay === undefined ? undefined : new Date(at.getTime() + delay * 1000).toISOString();
}

/** One try of an e-mail as read (message included): sent, retrying, given up, or expired. Never throws. */
async function tryToSend(email: EmailRecord, now: () => Date): Promise<EmailRecord['status'] | 'skipped'> {
  const about = { email_id: email.email_id, client_id: email.client_id, booking_id: email.booking_id, kind: email.kind };
  try {
    if (email.send_before && email.send_before <= now().toISOString()) {
      await markEmailExpired(email.email_id, now().toISOString());
      return 'expired';
    }
    if (email.html === undefined || email.text === undefined) return 'skipped';
    let messageId: string;
    try {
      messageId = await sendEmail({ fromName: email.from_name, ...(email.reply_to ? { replyTo: email.reply_to } : {}), to: email.to, subject: email.subject, html: email.html, text: email.text });
    } catch (error) {
      const at = now();
      const retryAt = retryAfter(email.attempts + 1, at);
      logger.warn(retryAt ? 'an e-mail to a guest could not be sent; it will be tried again' : 'an e-mail to a guest could not be sent; no try is left', {
        ...about,
        attempts: email.attempts + 1,
        retry_at: retryAt ?? null,
        error: errorText(error),
      });
      await markEmailFailed(email.email_id, at.toISOString(), errorText(error), retryAt);
      return retryAt ? 'retrying' : 'failed';
    }
    await markEmailSent(email.email_id, now().toISOString(), messageId);
    return 'sent';
  } catch (error) {
    // The record could not be updated: it stays due where it is, and the sweeper tries it (again).
    logger.error('an e-mail to a guest could not be recorded; the sweeper will see it again', { ...about, error: errorText(error) });
    return 'skipped';
  }
}

/**
 * Sends the e-mails a committed transaction wrote. Never throws: whatever is not sent stays on
 * the due index for the sweeper.
 */
export async function sendCommittedEmails(emails: readonly EmailRecord[]): Promise<void> {
  for (const email of emails) await tryToSend(email, () => new Date());
}

export interface EmailSweepResult {
  sent: number;
  retrying: number;
  failed: number;
  expired: number;
  /** Due e-mails read, all pages together. */
  due: number;
  /** False when the run stopped (time or SWEEP_MAX_PER_RUN) with e-mails still due: the next run continues. */
  drained: boolean;
}

/**
 * One sweep of the e-mails due at `now`: each claimed (moved SEND_LEASE_MS ahead on the index, so
 * no concurrent sweep tries it too), then tried. Bounded: SWEEP_MAX_PER_RUN e-mails, no new page
 * after `stopAt` (epoch ms).
 */
export async function sweepDueEmails(options: { now?: Date; stopAt?: number } = {}): Promise<EmailSweepResult> {
  const start = options.now ?? new Date();
  const startedAt = Date.now();
  // A test's `now` moves the clock for the whole run; otherwise the real time of each step.
  const now = () => (options.now ? new Date(options.now.getTime() + (Date.now() - startedAt)) : new Date());
  const result: EmailSweepResult = { sent: 0, retrying: 0, failed: 0, expired: 0, due: 0, drained: true };
  let cursor: Record<string, unknown> | undefined;
  do {
    if ((options.stopAt !== undefined && Date.now() >= options.stopAt) || result.due >= SWEEP_MAX_PER_RUN) {
      result.drained = false;
      break;
    }
    const page = await findDueEmails(start.toISOString(), { limit: SWEEP_PAGE_SIZE, cursor });
    cursor = page.cursor;
    result.due += page.due.length;
    const outcomes = await mapConcurrent(page.due, SWEEP_CONCURRENCY, async (due) => {
      const claimed = await claimDueEmail(due.email_id, due.due_at, new Date(now().getTime() + SEND_LEASE_MS).toISOString()).catch((error: unknown) => {
        logger.warn('a due e-mail could not be claimed; the next sweep tries it', { email_id: due.email_id, error: errorText(error) });
        return undefined;
      });
      return claimed ? tryToSend(claimed, now) : 'skipped';
    });
    for (const outcome of outcomes) if (outcome !== 'skipped' && outcome !== 'pending') result[outcome]++;
  } while (cursor);
  return result;
}

/** The confirmation e-mail of a booking, as staff see it; undefined when it has none (not a guest booking, or a stage without e-mail). */
export function confirmationEmailOf(clientId: string, bookingId: string): Promise<EmailRecord | undefined> {
  return getEmail(guestEmailId(clientId, bookingId, 'booking_confirmation'));
}
