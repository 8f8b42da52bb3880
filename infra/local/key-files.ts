/**
 * The local stack's keys (what the deployed stack keeps in KMS or Secrets Manager), each a file
 * of random bytes readable by its owner only. Functions get the file's path, never the key, so
 * no key is copied into stack.json, the environment or a log.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates the key file on first use (32 random bytes, base64, mode 600); returns its path. */
export function ensureKeyFile(path: string): string {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return path;
}
