/**
 * An authenticator app, for tests: the RFC 6238 code (SHA-1, 6 digits, 30 s steps, as Cognito's
 * and cognito-local's TOTP) of a base32 secret at a moment.
 */
import { createHmac } from 'node:crypto';

function base32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/[\s=]/g, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => Number.parseInt(b, 2)));
}

export function totpCode(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

/** A code that is not the one of this moment (nor of the steps either side). */
export function wrongCode(secret: string, at = Date.now()): string {
  const taken = new Set([-1, 0, 1].map((step) => totpCode(secret, at + step * 30_000)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!taken.has(code)) return code;
  }
}

/** The secret an authenticator set-up page shows (grouped in fours), from its HTML. */
export function secretOnPage(html: string): string {
  const match = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(html);
  if (!match) throw new Error('no TOTP secret on the page');
  return match[1]!.replace(/ /g, '');
}
