/** Generated signing secrets take the Standard Webhooks form, and never reach a message in clear. */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, signStandardWebhook } from '../../shared/domain/callbacks/signing';
import { redactSecrets } from '../../shared/secrets/redaction';

describe('generated signing secrets', () => {
  it('are whsec_ + standard base64 of 32 random bytes, which the standardwebhooks library takes as they are', () => {
    const secrets = Array.from({ length: 50 }, generateSigningSecret);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(50);
    const secret = secrets[0]!;
    const at = new Date();
    const header = signStandardWebhook([secret], 'msg_x', Math.floor(at.getTime() / 1000), '{"a":1}');
    const headers = { 'webhook-id': 'msg_x', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': header };
    expect(new Webhook(secret).verify('{"a":1}', headers)).toEqual({ a: 1 });
  });
});

describe('redaction', () => {
  it('hides a whole whsec_ secret, its +, / and = included, and Stripe keys', () => {
    const secret = 'whsec_ab+/cd==';
    expect(redactSecrets(`bad signature with ${secret} here`)).toBe('bad signature with [redacted] here');
    const generated = generateSigningSecret();
    expect(redactSecrets(`key=${generated};`)).toBe('key=[redacted];');
    expect(redactSecrets('whsec_old-form_base64url and sk_test_51abc')).toBe('[redacted] and [redacted]');
    expect(redactSecrets('no secret here')).toBe('no secret here');
  });
});
