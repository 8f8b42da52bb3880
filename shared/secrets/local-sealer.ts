/**
 * The local stand-in for KMS: AES-256-GCM under a 32-byte key kept in a file (the local stack's
 * `LOCAL_DATA_DIR/secrets.key`, a temporary one per test stack; made by infra/local/key-files.ts),
 * with the canonical encryption context as additional authenticated data. A value sealed for one
 * context fails to open under another, as KMS Decrypt fails with InvalidCiphertextException.
 *
 * Fields: `<iv>:<tag>:<ciphertext>`, each base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { canonicalContext, type Sealer, SecretCannotBeOpenedError } from './sealer';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new Map<string, Promise<Buffer>>();

async function loadKey(path: string): Promise<Buffer> {
  // Like ssh with a private key: a key others can read is refused rather than used.
  if (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0) {
    throw new Error(`${path} must be readable by its owner only: chmod 600 ${path}`);
  }
  const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${path} must hold ${KEY_BYTES} bytes in base64`);
  return key;
}

function keyOf(path: string): Promise<Buffer> {
  let key = keys.get(path);
  if (!key) {
    key = loadKey(path);
    key.catch(() => keys.delete(path));
    keys.set(path, key);
  }
  return key;
}

export function localSealer(keyFile: string): Sealer {
  return {
    scheme: 'local',
    async seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyOf(keyFile), iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(canonicalContext(context));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')).join(':');
    },
    async open(fields, context) {
      const [iv, tag, data, ...rest] = fields.split(':').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !data || rest.length || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new SecretCannotBeOpenedError('it is not a sealed secret');
      }
      const decipher = createDecipheriv('aes-256-gcm', await keyOf(keyFile), iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(canonicalContext(context));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretCannotBeOpenedError('it was sealed for another client or kind, under another key, or altered');
      }
    },
  };
}
