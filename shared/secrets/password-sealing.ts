/**
 * A secret kept on the table sealed under its owner's password: the authenticator key of an
 * operator's set-up under way at sign-in (shared/store/totp-setup-store.ts). Whoever can read the
 * table but does not know the password cannot read the key; whoever knows the password could sign
 * in and be shown it anyway, so sealing it so protects it as well as the sign-in itself does, with
 * no key of the service's to guard.
 *
 * scrypt (N 2^14, r 8, p 1: about 16 MiB and tens of milliseconds a derivation, paid once per
 * sign-in that needs it) derives an AES-256-GCM key from the password and a random salt; the
 * additional authenticated data binds the sealed value to its owner, so a value copied onto
 * another operator's item does not open. Format: `p1:<salt>:<iv>:<tag>:<ciphertext>` (base64url).
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';

const SCHEME = 'p1';
const COST: ScryptOptions = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derivedKey(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCallback(password.normalize('NFC'), salt, 32, COST, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `plaintext` sealed under `password`, bound to `owner` (the operator's item's key). */
export async function sealWithPassword(plaintext: string, password: string, owner: string): Promise<string> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derivedKey(password, salt), iv);
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SCHEME, salt, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
}

/** The plaintext, or undefined when `sealed` does not open with this password for this owner (another password, owner, or format). */
export async function openWithPassword(sealed: string, password: string, owner: string): Promise<string | undefined> {
  const [scheme, ...parts] = sealed.split(':');
  if (scheme !== SCHEME || parts.length !== 4) return undefined;
  const [salt, iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer, Buffer];
  if (salt.length !== 16 || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await derivedKey(password, salt), iv);
    decipher.setAAD(Buffer.from(owner, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
