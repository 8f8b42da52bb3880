/**
 * "Confirm your password": the dashboard's step before an action that routes money or data
 * elsewhere (shared/domain/reauthentication.ts). When the operator has not confirmed their
 * password in the last 5 minutes, the action's form is answered with a page asking for it, whose
 * form posts the same fields back to the same action with the password: one more submit, and
 * nothing typed is lost. A confirmation travels in an HttpOnly, SameSite=Strict cookie of the
 * dashboard's path that lasts as long as it counts.
 */
import type { ComponentChildren } from 'preact';
import { confirmPassword, REAUTH_MAX_AGE_SECONDS, recentlyConfirmed } from '../domain/reauthentication';
import { COOKIE, scopedCookieOptions, serializeCookie } from './cookies';
import { Dl, Field, type NavKey, Page } from './layout';
import type { PageOutcome, PageRequest } from './page-function';

/** The password's field on the confirmation page (never one of an action's own fields). */
export const PASSWORD_FIELD = 'current_password';
export const INCORRECT_PASSWORD = 'Incorrect password';

export interface ConfirmedAction {
  /** The action's path: the confirmation page's form posts there. */
  path: string;
  /** What the action does, after "To ": e.g. "change the callback URL". */
  what: string;
  /** What the operator is about to confirm, shown above the password. */
  details: readonly (readonly [string, ComponentChildren])[];
  /** The button, e.g. "Confirm and save". */
  button: string;
  /** The page the action belongs to: its navigation entry, and where Cancel leads. */
  nav: NavKey;
  back: string;
}

function confirmationPage(request: PageRequest, action: ConfirmedAction, error?: string) {
  const { links } = request;
  const fields = [...request.form].filter(([name]) => name !== PASSWORD_FIELD);
  const minutes = REAUTH_MAX_AGE_SECONDS / 60;
  return (
    <Page title="Confirm your password" links={links} operator={request.operator} nav={action.nav}>
      {error ? (
        <div class="notice error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <p>
        To {action.what}, enter your password again. You will not be asked again for {minutes} minutes.
      </p>
      {action.details.length ? <Dl rows={action.details} /> : null}
      <form method="post" action={links.to(action.path)} aria-label="Confirm your password">
        {fields.map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <Field label="Password" name={PASSWORD_FIELD} type="password" required autocomplete="current-password" error={error} />
        <button type="submit">{action.button}</button>
      </form>
      <p>
        <a href={links.to(action.back)}>Cancel</a>
      </p>
    </Page>
  );
}

/**
 * Runs `run` when the operator confirmed their password at most 5 minutes ago, or confirms it now
 * (the confirmation page's submit); otherwise answers the confirmation page (a wrong password:
 * again, with "Incorrect password", status 401).
 */
export async function withRecentPassword(request: PageRequest, action: ConfirmedAction, run: () => Promise<PageOutcome>): Promise<PageOutcome> {
  const { operator, now } = request;
  if (await recentlyConfirmed(operator, request.cookies[COOKIE.reauth], now)) return run();
  const password = request.form.get(PASSWORD_FIELD);
  if (password === null) return { html: confirmationPage(request, action) };
  const token = await confirmPassword(operator, password, now, { ipAddress: request.sourceIp });
  if (!token) return { html: confirmationPage(request, action, INCORRECT_PASSWORD), status: 401 };
  const cookie = serializeCookie(COOKIE.reauth, token, scopedCookieOptions(request.cookieScope, REAUTH_MAX_AGE_SECONDS));
  const outcome = await run();
  return 'raw' in outcome ? outcome : { ...outcome, cookies: [...(outcome.cookies ?? []), cookie] };
}
