/**
 * Setting up an authenticator app (TOTP): the QR code of its otpauth:// URI, the secret to type
 * in instead, and the first code. Shared by the sign-in (Cognito's MFA_SETUP, or an operator who
 * must have a second factor) and the Security page; each posts the form to its own action.
 */
import type { VNode } from 'preact';
import { totpUri } from '../../domain/operators';
import { ErrorSummary, Field, type Links } from '../layout';
import { qrCodeDataUrl } from '../qr-code';

export const INCORRECT_CODE = 'That code is not right: enter the 6-digit code your app shows now';

/** A TOTP secret as Cognito issues it (base32), checked before a form's copy is shown again. */
export const isTotpSecret = (value: string) => /^[A-Z2-7]{16,128}$/.test(value);

/** The secret in groups of four, as authenticator apps print it and people type it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** The code's field: digits only, the phone's number pad, and the one-time code a phone may offer; what was typed kept. */
export function CodeField({ value, error, hint }: { value?: string; error?: string; hint?: string }) {
  return <Field label="Code" name="code" inputmode="numeric" autocomplete="one-time-code" required value={value} error={error} hint={hint} />;
}

export interface TotpSetupProps {
  links: Links;
  email: string;
  secret: string;
  /** The form's action (a dashboard path) and the hidden fields it carries besides the secret. */
  action: string;
  hidden?: Record<string, string>;
  button: string;
  error?: string;
  /** The code as typed, shown again with its error. */
  code?: string;
}

/** The two steps, as an ordered list, for the caller's page (the QR code is drawn first, hence async). */
export async function totpSetupSteps(props: TotpSetupProps): Promise<VNode> {
  const qr = await qrCodeDataUrl(totpUri(props.secret, props.email));
  return (
    <>
      <ErrorSummary errors={{ code: props.error }} />
      <ol class="steps">
        <li>
          <p>Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password) and scan this QR code.</p>
          <img class="qr" src={qr} alt={`QR code that adds ${props.email} to an authenticator app`} width={192} height={192} />
          <p>
            Cannot scan it? Add an account by hand with this key: <code class="secret">{grouped(props.secret)}</code>
          </p>
        </li>
        <li>
          <p>Enter the 6-digit code the app now shows for the hotel dashboard.</p>
          <form method="post" action={props.links.to(props.action)} novalidate>
            {Object.entries({ ...props.hidden, secret: props.secret }).map(([name, value]) => (
              <input type="hidden" name={name} value={value} />
            ))}
            <CodeField value={props.error ? props.code : undefined} error={props.error} />
            <button type="submit">{props.button}</button>
          </form>
        </li>
      </ol>
    </>
  );
}
