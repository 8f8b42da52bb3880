/**
 * Amazon SES (API v2 `SendEmail`, simple content): the one place that talks to it. The sender is
 * the stage's verified identity (SENDER_EMAIL); the local stack points the client at the SES v2
 * emulator (SES_ENDPOINT, aws-ses-v2-local), whose `GET /store` lists what was sent.
 */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';
import { serviceClient } from '../observability';

type SesModule = typeof import('@aws-sdk/client-sesv2');

export interface OutgoingEmail {
  /** The display name of the sender (the hotel's name); the address is the stage's identity. */
  fromName: string;
  /** Where the guest's reply goes: the hotel's e-mail, where it has one. */
  replyTo?: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** How long one send may take, SDK retries included: a page or a settlement waiting on it answers anyway. */
export const SEND_TIMEOUT_MS = 3_000;

let client: { endpoint: string | undefined; ses: SESv2Client; SendEmailCommand: SesModule['SendEmailCommand'] } | undefined;

/**
 * The SES client, imported on first use (most requests of the functions that may send never do),
 * and made again when the endpoint changed (a test pointing the functions at a closed port).
 */
async function ses() {
  const endpoint = config().email.endpoint;
  if (!client || client.endpoint !== endpoint) {
    const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    client?.ses.destroy();
    client = {
      endpoint,
      ses: serviceClient(new SESv2Client({ ...(endpoint ? { endpoint } : {}), maxAttempts: 2, requestHandler: { connectionTimeout: 1000, requestTimeout: 2000 } })),
      SendEmailCommand,
    };
  }
  return client;
}

/** Whether this stage sends e-mail at all (deployed with `-c senderEmail`; always on the local stack). */
export function emailEnabled(): boolean {
  return config().email.sender !== undefined;
}

/** A header's text on one line: no CR, LF or other control characters (no header injection). */
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * `"Name" <address>`: the display name quoted, or MIME-encoded (RFC 2047) when it is not plain
 * ASCII, as SES requires of a display name in FromEmailAddress.
 */
export function fromAddress(name: string, address: string): string {
  const display = oneLine(name);
  if (!display) return address;
  const encoded = /^[\x20-\x7e]*$/.test(display)
    ? `"${display.replace(/[\\"]/g, (c) => `\\${c}`)}"`
    : `=?UTF-8?B?${Buffer.from(display, 'utf8').toString('base64')}?=`;
  return `${encoded} <${address}>`;
}

/** Sends one e-mail (HTML with its plain-text part); resolves to SES's message id, rejects on any failure. */
export async function sendEmail(email: OutgoingEmail): Promise<string> {
  const sender = config().email.sender;
  if (!sender) throw new Error('This stage sends no e-mail: it was deployed without a sender identity (-c senderEmail)');
  const { ses: client, SendEmailCommand } = await ses();
  const utf8 = (data: string) => ({ Data: data, Charset: 'UTF-8' });
  const sent = await client.send(
    new SendEmailCommand({
      FromEmailAddress: fromAddress(email.fromName, sender),
      Destination: { ToAddresses: [email.to] },
      ...(email.replyTo ? { ReplyToAddresses: [email.replyTo] } : {}),
      Content: { Simple: { Subject: utf8(oneLine(email.subject)), Body: { Html: utf8(email.html), Text: utf8(email.text) } } },
    }),
    { abortSignal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
  return sent.MessageId ?? '';
}
