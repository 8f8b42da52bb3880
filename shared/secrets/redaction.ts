/**
 * What must never reach a log line or an error message people read: Stripe keys (`sk_`, `rk_`,
 * `pk_` with `test`/`live`) and signing secrets (`whsec_`, whose base64 takes `+`, `/` and `=`,
 * and the older base64url form `-` and `_`). Replaced whole with `[redacted]`.
 */
export const SECRET_LIKE = /\b(sk|rk|pk)_(test|live)_\w+|\bwhsec_[A-Za-z0-9+/=_-]+/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET_LIKE, '[redacted]');
}
