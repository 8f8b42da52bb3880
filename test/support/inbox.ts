/**
 * The e-mails the service sent, as the run's SES v2 emulator (aws-ses-v2-local) kept them: its
 * `GET /store` lists every message. Tests tell theirs apart by the recipient's address.
 */
import { inject } from 'vitest';
import { waitFor } from './receiver';

export interface SentEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  /** Epoch seconds. */
  at: number;
}

/** Every e-mail sent to `address` so far, oldest first. */
export async function emailsTo(address: string): Promise<SentEmail[]> {
  // A stalled answer must not outlive the caller's wait (waitFor checks its deadline between calls).
  const response = await fetch(`${inject('emulators').sesEndpoint}/store`, { signal: AbortSignal.timeout(10_000) });
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails.filter((email) => email.destination.to.includes(address));
}

/** The first e-mail to `address` whose subject matches, once it arrives. */
export function emailTo(address: string, subject: RegExp, timeoutMs?: number): Promise<SentEmail> {
  return waitFor(
    `an e-mail to ${address} (${subject})`,
    async () => (await emailsTo(address)).find((email) => subject.test(email.subject)),
    timeoutMs,
  );
}

/** The link of a sent e-mail's plain-text part whose line starts with `label:`. */
export function linkIn(email: SentEmail, label: string): string {
  const line = (email.body.text ?? '').split('\n').find((l) => l.startsWith(`${label}: `));
  if (!line) throw new Error(`no "${label}" link in:\n${email.body.text}`);
  return line.slice(label.length + 2).trim();
}
