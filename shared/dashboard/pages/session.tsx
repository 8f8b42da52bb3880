/**
 * Sign-in (e-mail and password, Cognito) and the steps Cognito may ask for next: the first new
 * password of a temporary one, a code from the operator's authenticator app ("Code"), setting
 * the app up (Cognito's MFA_SETUP, or an operator who must have a second factor); sign-out.
 */
import {
  completeMfaSetup,
  completeNewPassword,
  completeRequiredTotpSetup,
  IncorrectCodeError,
  type SignInContext,
  SignInRefusedError,
  type SignInStep,
  signIn,
  signOut,
  startRequiredTotpSetup,
  startTotpSetup,
  submitSignInCode,
} from '../../domain/operators';
import { AppError } from '../../errors';
import { logger } from '../../observability';
import { scopedCookieOptions, serializeCookie } from '../cookies';
import { ErrorSummary, Field, type Links, NoticeBox, PublicPage } from '../layout';
import type { Notice } from '../notice';
import type { PageOutcome, PageRequest, PublicPageAction } from '../page-function';
import { DASHBOARD_CSS } from '../stylesheet';
import { clearedSessionCookies, COOKIE, sessionCookies } from '../session';
import { CodeField, INCORRECT_CODE, isTotpSecret, totpSetupSteps } from './totp-setup';

export const INCORRECT_SIGN_IN = 'Incorrect email or password';
const SIGN_IN_EXPIRED = 'That sign-in expired: sign in again';

/**
 * How long the access token of a sign-in waiting for its second factor to be set up is kept
 * (COOKIE.mfaSetup): time to install an app and scan a code, well within the token's 15 minutes.
 */
const MFA_SETUP_MAX_AGE_SECONDS = 10 * 60;

type Request = Omit<PageRequest, 'operator'>;

/** The challenge a form carries on: the e-mail (shown), the pool's username and Cognito's session (answered). */
interface Pending {
  email: string;
  username: string;
  session: string;
}

const contextOf = (request: Request): SignInContext => ({ ipAddress: request.sourceIp });

function pendingOf(form: URLSearchParams): Pending {
  const email = (form.get('email') ?? '').trim();
  return { email, username: form.get('username') || email, session: form.get('session') ?? '' };
}

function PendingFields({ pending }: { pending: Pending }) {
  return (
    <>
      <input type="hidden" name="email" value={pending.email} />
      <input type="hidden" name="username" value={pending.username} />
      <input type="hidden" name="session" value={pending.session} />
    </>
  );
}

/** The sign-in form's errors: a field's (`email`, `password`), or the form's own (`form`: an expired sign-in). */
type SignInErrors = Partial<Record<'email' | 'password' | 'form', string>>;

/** The sign-in form; the e-mail as typed is kept, the password never is. */
function signInForm(links: Links, options: { email?: string; errors?: SignInErrors; notice?: Notice } = {}) {
  const errors = options.errors ?? {};
  return (
    <PublicPage title="Sign in" links={links}>
      {options.notice ? <NoticeBox notice={options.notice} /> : null}
      <ErrorSummary errors={errors} />
      <form method="post" action={links.to('/dashboard/sign-in')} novalidate>
        <Field label="Email" name="email" type="email" value={options.email} error={errors.email} required autocomplete="username" />
        <Field label="Password" name="password" type="password" error={errors.password} required autocomplete="current-password" />
        <button type="submit">Sign in</button>
      </form>
    </PublicPage>
  );
}

/** A wrong e-mail or password: which one is not said. The message sits by the password, the field to type again. */
const refused = (links: Links, email: string): PageOutcome => ({ html: signInForm(links, { email, errors: { password: INCORRECT_SIGN_IN } }), status: 401 });

function newPasswordForm(links: Links, pending: Pending, error?: string) {
  return (
    <PublicPage title="Choose a new password" links={links}>
      <ErrorSummary errors={{ new_password: error }} />
      <p>Your password was temporary. Choose your own to continue.</p>
      <form method="post" action={links.to('/dashboard/new-password')} novalidate>
        <PendingFields pending={pending} />
        <Field
          label="New password"
          name="new_password"
          type="password"
          required
          autocomplete="new-password"
          error={error}
          hint="At least 12 characters with a lowercase and an uppercase letter, a digit and a symbol."
        />
        <button type="submit">Set password</button>
      </form>
    </PublicPage>
  );
}

/** Cognito's SOFTWARE_TOKEN_MFA: the "Code" page. */
function codeForm(links: Links, pending: Pending, error?: string, code?: string) {
  return (
    <PublicPage title="Code" links={links}>
      <ErrorSummary errors={{ code: error }} />
      <p>Enter the 6-digit code your authenticator app shows for the hotel dashboard ({pending.email}).</p>
      <form method="post" action={links.to('/dashboard/sign-in/code')} novalidate>
        <PendingFields pending={pending} />
        <CodeField value={code} error={error} hint="The app shows a new code every 30 seconds." />
        <button type="submit">Sign in</button>
      </form>
      <p>
        <a href={links.to('/dashboard/sign-in')}>Sign in again</a>
      </p>
    </PublicPage>
  );
}

/**
 * Setting up the authenticator app before the sign-in completes: with Cognito's session (its
 * MFA_SETUP challenge), or with the sign-in's access token in COOKIE.mfaSetup (no hidden field).
 */
async function mfaSetupPage(links: Links, setup: { email: string; secret: string; pending?: Pending }, error?: string, code?: string) {
  const steps = await totpSetupSteps({
    links,
    email: setup.email,
    secret: setup.secret,
    action: '/dashboard/sign-in/mfa-setup',
    hidden: setup.pending ? { email: setup.email, username: setup.pending.username, session: setup.pending.session } : { email: setup.email },
    button: 'Turn on and continue',
    error,
    code,
  });
  return (
    <PublicPage title="Set up two-step verification" links={links}>
      <p>Your account needs a second step at sign-in: a code from an authenticator app on your phone. Set it up now; it takes a minute.</p>
      {steps}
    </PublicPage>
  );
}

/** The set-up page as it was shown: what COOKIE.mfaSetupPage keeps. */
interface ShownSetup {
  email: string;
  secret: string;
  pending?: Pending;
}

function shownSetupCookie(setup: ShownSetup, scope: Request['cookieScope'], maxAge = MFA_SETUP_MAX_AGE_SECONDS): string {
  return serializeCookie(COOKIE.mfaSetupPage, maxAge ? Buffer.from(JSON.stringify(setup)).toString('base64url') : '', scopedCookieOptions(scope, maxAge));
}

function shownSetupOf(cookies: Record<string, string>): ShownSetup | undefined {
  try {
    const setup = JSON.parse(Buffer.from(cookies[COOKIE.mfaSetupPage] ?? '', 'base64url').toString('utf8')) as ShownSetup;
    return typeof setup.email === 'string' && isTotpSecret(setup.secret) ? setup : undefined;
  } catch {
    return undefined;
  }
}

/**
 * To the set-up page (POST-redirect-GET), with the cookie that shows it, and shows it again on a
 * reload or on going back, with the same key.
 */
function showSetup(request: Request, setup: ShownSetup, more: string[] = []): PageOutcome {
  return { redirect: '/dashboard/sign-in/mfa-setup', cookies: [...more, shownSetupCookie(setup, request.cookieScope)] };
}

/**
 * GET of the set-up page (a reload, going back to it): the page again with the same key while
 * the sign-in waits; else the sign-in page, never a raw error.
 */
export const mfaSetupAgain: PublicPageAction = async (request) => {
  const shown = shownSetupOf(request.cookies);
  if (!shown || (!shown.pending && !request.cookies[COOKIE.mfaSetup])) {
    return { redirect: '/dashboard/sign-in', notice: { kind: 'error', message: 'That set-up expired: sign in again to set up your authenticator app.' } };
  }
  return { html: await mfaSetupPage(request.links, shown) };
};

/**
 * The page or redirect of each step of a sign-in. `password`: the one the operator just gave (the
 * sign-in's, or the new one), which seals the key of a set-up under way.
 */
async function outcomeOf(step: SignInStep, email: string, request: Request, password?: string): Promise<PageOutcome> {
  const { links, cookieScope } = request;
  switch (step.kind) {
    case 'signed_in':
      // A set-up page left behind (the set-up just done) is not shown again.
      const leftBehind = request.cookies[COOKIE.mfaSetupPage] ? [shownSetupCookie({ email, secret: '' }, cookieScope, 0)] : [];
      return { redirect: '/dashboard', cookies: [...sessionCookies(step.tokens, cookieScope), ...leftBehind] };
    case 'new_password_required':
      return { html: newPasswordForm(links, { email, username: step.username, session: step.session }) };
    case 'code_required':
      return { html: codeForm(links, { email, username: step.username, session: step.session }) };
    case 'mfa_setup': {
      const setup = await startTotpSetup({ session: step.session }, email);
      const pending = { email, username: step.username, session: setup.session ?? step.session };
      return showSetup(request, { email, secret: setup.secret, pending });
    }
    case 'mfa_setup_required': {
      // While a set-up is under way, signing in again shows the key already shown.
      const setup = await startRequiredTotpSetup(step.accessToken, email, password, request.now);
      const cookie = serializeCookie(COOKIE.mfaSetup, step.accessToken, scopedCookieOptions(cookieScope, MFA_SETUP_MAX_AGE_SECONDS));
      return showSetup(request, { email, secret: setup.secret }, [cookie]);
    }
  }
}

/** A step whose session Cognito no longer takes: the sign-in form again. */
const expired = (links: Links, email: string): PageOutcome => ({ html: signInForm(links, { email, errors: { form: SIGN_IN_EXPIRED } }), status: 401 });

export const signInPage: PublicPageAction = async ({ links, notice }) => ({ html: signInForm(links, { notice }) });

export const submitSignIn: PublicPageAction = async (request): Promise<PageOutcome> => {
  const { form, links } = request;
  const email = (form.get('email') ?? '').trim();
  const password = form.get('password') ?? '';
  if (!email || !password) {
    const errors: SignInErrors = { email: email ? undefined : 'Enter your email address', password: password ? undefined : 'Enter your password' };
    return { html: signInForm(links, { email, errors }), status: 400 };
  }
  try {
    return await outcomeOf(await signIn(email, password, contextOf(request)), email, request, password);
  } catch (error) {
    if (error instanceof SignInRefusedError) return refused(links, email);
    throw error;
  }
};

export const submitNewPassword: PublicPageAction = async (request): Promise<PageOutcome> => {
  const pending = pendingOf(request.form);
  try {
    const newPassword = request.form.get('new_password') ?? '';
    const step = await completeNewPassword(pending.username, pending.session, newPassword, contextOf(request));
    return await outcomeOf(step, pending.email, request, newPassword);
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return { html: newPasswordForm(request.links, pending, error.message), status: 400 };
    if (error instanceof SignInRefusedError) {
      return { html: signInForm(request.links, { email: pending.email, errors: { form: 'That sign-in expired: sign in again with your temporary password' } }), status: 401 };
    }
    throw error;
  }
};

/** The Code page's form: the code of Cognito's SOFTWARE_TOKEN_MFA. */
export const submitCode: PublicPageAction = async (request): Promise<PageOutcome> => {
  const pending = pendingOf(request.form);
  const code = (request.form.get('code') ?? '').trim();
  try {
    const step = await submitSignInCode(pending.username, pending.session, code, contextOf(request));
    return await outcomeOf(step, pending.email, request);
  } catch (error) {
    if (error instanceof IncorrectCodeError) return { html: codeForm(request.links, pending, INCORRECT_CODE, code), status: 401 };
    if (error instanceof SignInRefusedError) return expired(request.links, pending.email);
    throw error;
  }
};

/** The first code of an authenticator app set up at sign-in. */
export const submitMfaSetup: PublicPageAction = async (request): Promise<PageOutcome> => {
  const { form, links, cookies, cookieScope } = request;
  const email = (form.get('email') ?? '').trim();
  const secret = form.get('secret') ?? '';
  const code = (form.get('code') ?? '').trim();
  const challenge = form.get('session') ? pendingOf(form) : undefined;
  const accessToken = cookies[COOKIE.mfaSetup];
  if (!isTotpSecret(secret) || (!challenge && !accessToken)) return expired(links, email);
  try {
    if (challenge) return await outcomeOf(await completeMfaSetup(challenge.username, challenge.session, code, contextOf(request)), email, request);
    await completeRequiredTotpSetup(accessToken!, code, request.now);
  } catch (error) {
    if (error instanceof IncorrectCodeError) return { html: await mfaSetupPage(links, { email, secret, pending: challenge }, INCORRECT_CODE, code), status: 401 };
    if (error instanceof SignInRefusedError) return expired(links, email);
    throw error;
  }
  // The password alone opened no session: the operator signs in again, now with a code.
  return {
    redirect: '/dashboard/sign-in',
    cookies: [serializeCookie(COOKIE.mfaSetup, '', scopedCookieOptions(cookieScope, 0)), shownSetupCookie({ email, secret }, cookieScope, 0)],
    notice: { kind: 'success', message: 'Two-step verification is on. Sign in with your password and a code from your app.' },
  };
};

export const submitSignOut: PublicPageAction = async ({ cookieScope, cookies }) => {
  // The refresh token is revoked (and with it, on Cognito, the tokens it issued); the cookies go either way.
  const refreshToken = cookies[COOKIE.refresh];
  if (refreshToken) {
    try {
      await signOut(refreshToken);
    } catch (error) {
      logger.warn('could not revoke the refresh token at sign-out', { error: (error as Error).name });
    }
  }
  return { redirect: '/dashboard/sign-in', cookies: clearedSessionCookies(cookieScope), notice: { kind: 'success', message: 'Signed out.' } };
};

export const stylesheet: PublicPageAction = async () => ({ raw: DASHBOARD_CSS, contentType: 'text/css; charset=utf-8', cacheSeconds: 300 });
