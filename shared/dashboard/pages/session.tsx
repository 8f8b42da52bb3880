/** Sign-in (e-mail and password, Cognito), the first new password of a temporary one, sign-out. */
import { completeNewPassword, SignInRefusedError, signIn, signOut } from '../../domain/operators';
import { AppError } from '../../errors';
import { logger } from '../../observability';
import { Field, type Links, NoticeBox, PublicPage } from '../layout';
import type { Notice } from '../notice';
import type { PageOutcome, PublicPageAction } from '../page-function';
import { DASHBOARD_CSS } from '../stylesheet';
import { clearedSessionCookies, COOKIE, sessionCookies } from '../session';

export const INCORRECT_SIGN_IN = 'Incorrect email or password';

function signInForm(links: Links, options: { email?: string; error?: string; notice?: Notice } = {}) {
  return (
    <PublicPage title="Sign in" links={links}>
      {options.notice ? <NoticeBox notice={options.notice} /> : null}
      {options.error ? (
        <div class="notice error" role="alert">
          <p>{options.error}</p>
        </div>
      ) : null}
      <form method="post" action={links.to('/dashboard/sign-in')}>
        <Field label="Email" name="email" type="email" value={options.email} required autocomplete="username" />
        <Field label="Password" name="password" type="password" required autocomplete="current-password" />
        <button type="submit">Sign in</button>
      </form>
    </PublicPage>
  );
}

function newPasswordForm(links: Links, email: string, session: string, error?: string) {
  return (
    <PublicPage title="Choose a new password" links={links}>
      <p>Your password was temporary. Choose your own to continue.</p>
      <form method="post" action={links.to('/dashboard/new-password')}>
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="session" value={session} />
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

export const signInPage: PublicPageAction = async ({ links, notice }) => ({ html: signInForm(links, { notice }) });

export const submitSignIn: PublicPageAction = async ({ form, links, cookieScope }): Promise<PageOutcome> => {
  const email = (form.get('email') ?? '').trim();
  const password = form.get('password') ?? '';
  if (!email || !password) return { html: signInForm(links, { email, error: INCORRECT_SIGN_IN }), status: 401 };
  try {
    const result = await signIn(email, password);
    if (result.kind === 'new_password_required') return { html: newPasswordForm(links, email, result.session) };
    return { redirect: '/dashboard', cookies: sessionCookies(result.tokens, cookieScope) };
  } catch (error) {
    if (error instanceof SignInRefusedError) return { html: signInForm(links, { email, error: INCORRECT_SIGN_IN }), status: 401 };
    throw error;
  }
};

export const submitNewPassword: PublicPageAction = async ({ form, links, cookieScope }): Promise<PageOutcome> => {
  const email = form.get('email') ?? '';
  const session = form.get('session') ?? '';
  try {
    const tokens = await completeNewPassword(email, session, form.get('new_password') ?? '');
    return { redirect: '/dashboard', cookies: sessionCookies(tokens, cookieScope) };
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return { html: newPasswordForm(links, email, session, error.message), status: 400 };
    if (error instanceof SignInRefusedError) return { html: signInForm(links, { email, error: 'That sign-in expired: sign in again with your temporary password' }), status: 401 };
    throw error;
  }
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
