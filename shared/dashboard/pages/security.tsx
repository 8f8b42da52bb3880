/**
 * Security: the signed-in operator's own second factor. Two-step verification (TOTP, an
 * authenticator app) is shown on or off, and turned on: a new secret for the app
 * (AssociateSoftwareToken), its first code (VerifySoftwareToken), then TOTP preferred
 * (SetUserMFAPreference), so that Cognito asks for a code at every sign-in, and recorded in the
 * audit trail (turnOnTwoStep). Each call takes an access token of the operator's session, which
 * the session's refresh token gives.
 */
import { confirmPasswordAndCode, turnOnTwoStep } from '../../domain/operator-actions/two-step';
import { IncorrectCodeError, SignInRefusedError, startTotpSetup, totpStatus } from '../../domain/operators';
import { ActionButton, Dl, Field, Page } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { INCORRECT_PASSWORD, PASSWORD_FIELD } from '../reauthentication';
import { accessTokenOf } from '../session';
import { INCORRECT_CODE, isTotpSecret, totpSetupSteps } from './totp-setup';

const SESSION_ENDED: PageOutcome = { redirect: '/dashboard/sign-in', notice: { kind: 'error', message: 'Your session ended: sign in again.' } };

/** Undefined for a refused token (the session was revoked): the caller answers SESSION_ENDED. */
const sessionEnded = (error: unknown): undefined => {
  if (error instanceof SignInRefusedError) return undefined;
  throw error;
};

/** The access token of the request's session, or undefined when the session no longer renews (signed out elsewhere). */
const accessTokenFor = (request: PageRequest) => accessTokenOf(request.cookies, request.now);

export const securityPage: PageAction = async (request) => {
  const accessToken = await accessTokenFor(request);
  const status = accessToken ? await totpStatus(accessToken).catch(sessionEnded) : undefined;
  if (!status) return SESSION_ENDED;
  const { enabled, required } = status;
  const { links, operator, notice } = request;
  return {
    html: (
      <Page title="Security" links={links} operator={operator} nav="security" notice={notice}>
        <h2>Two-step verification</h2>
        <Dl
          rows={[
            ['Status', enabled ? 'On: after your password, a code from your authenticator app' : 'Off: your password alone signs you in'],
            ['Required', required ? 'Yes, for your account' : 'No'],
          ]}
        />
        {enabled ? (
          <p>Moving to a new phone? Set the app up again there: the code of the old one stops working once the new one is on.</p>
        ) : (
          <p>Add a second step to your sign-in: a 6-digit code from an authenticator app on your phone, so that a password alone no longer opens your hotel's dashboard.</p>
        )}
        <div class="actions">
          <ActionButton action={links.to('/dashboard/security/totp')} label={enabled ? 'Set up a new authenticator app' : 'Set up an authenticator app'} />
        </div>
      </Page>
    ),
  };
};

async function setupPage(request: PageRequest, secret: string, error?: string, code?: string) {
  const steps = await totpSetupSteps({
    links: request.links,
    email: request.operator.email,
    secret,
    action: '/dashboard/security/totp/verify',
    button: 'Turn on',
    error,
    code,
  });
  return (
    <Page title="Set up an authenticator app" links={request.links} operator={request.operator} nav="security">
      {steps}
      <p>
        <a href={request.links.to('/dashboard/security')}>Cancel</a>
      </p>
    </Page>
  );
}

/**
 * Replacing the authenticator app asks for the password and a code of the app in use first (the
 * "Confirm your password" step): a session alone, a stolen one included, cannot move the second
 * factor to another phone.
 */
function confirmReplacementPage(request: PageRequest, error?: { field: 'password' | 'code'; message: string }) {
  const { links } = request;
  return (
    <Page title="Confirm your password" links={links} operator={request.operator} nav="security">
      {error ? (
        <div class="notice error" role="alert">
          <p>{error.message}</p>
        </div>
      ) : null}
      <p>To set up a new authenticator app, enter your password and a code from the app you use now.</p>
      <form method="post" action={links.to('/dashboard/security/totp')} aria-label="Confirm your password">
        <Field label="Password" name={PASSWORD_FIELD} type="password" required autocomplete="current-password" error={error?.field === 'password' ? error.message : undefined} />
        <Field label="Code from your current app" name="current_code" required autocomplete="one-time-code" inputmode="numeric" error={error?.field === 'code' ? error.message : undefined} />
        <button type="submit">Confirm and set up a new app</button>
      </form>
      <p>
        <a href={links.to('/dashboard/security')}>Cancel</a>
      </p>
    </Page>
  );
}

/** Undefined when the operator may go on to a new app's set-up; else the confirmation page (again). */
async function replacementConfirmed(request: PageRequest): Promise<PageOutcome | undefined> {
  const password = request.form.get(PASSWORD_FIELD);
  if (password === null) return { html: confirmReplacementPage(request) };
  const verdict = await confirmPasswordAndCode(request.operator.email, password, request.form.get('current_code') ?? '', { ipAddress: request.sourceIp });
  if (verdict === 'incorrect_password') return { html: confirmReplacementPage(request, { field: 'password', message: INCORRECT_PASSWORD }), status: 401 };
  if (verdict === 'incorrect_code') return { html: confirmReplacementPage(request, { field: 'code', message: INCORRECT_CODE }), status: 401 };
  return undefined;
}

/** "Set up an authenticator app": a new secret, shown as a QR code and as text, with the form for the first code. */
export const startTotp: PageAction = async (request) => {
  const accessToken = await accessTokenFor(request);
  if (!accessToken) return SESSION_ENDED;
  try {
    const status = await totpStatus(accessToken);
    if (status.enabled) {
      const refused = await replacementConfirmed(request);
      if (refused) return refused;
    }
    const { secret } = await startTotpSetup({ accessToken }, request.operator.email);
    return { html: await setupPage(request, secret) };
  } catch (error) {
    if (error instanceof SignInRefusedError) return SESSION_ENDED;
    throw error;
  }
};

/** The first code: TOTP on, recorded in the audit trail. */
export const enableTotpAction: PageAction = async (request) => {
  const secret = request.form.get('secret') ?? '';
  if (!isTotpSecret(secret)) return { redirect: '/dashboard/security', notice: { kind: 'error', message: 'That set-up expired: start again.' } };
  const accessToken = await accessTokenFor(request);
  if (!accessToken) return SESSION_ENDED;
  const code = (request.form.get('code') ?? '').trim();
  try {
    await turnOnTwoStep(request.operator, accessToken, code, request.now);
  } catch (error) {
    if (error instanceof IncorrectCodeError) return { html: await setupPage(request, secret, INCORRECT_CODE, code), status: 400 };
    if (error instanceof SignInRefusedError) return SESSION_ENDED;
    throw error;
  }
  return {
    redirect: '/dashboard/security',
    notice: { kind: 'success', message: 'Two-step verification is on. From your next sign-in, enter a code from your app after your password.' },
  };
};
