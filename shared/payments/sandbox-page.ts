/** The sandbox provider's hosted checkout page, on the sandbox's own origin. */
import { createHash } from 'node:crypto';
import type { SandboxSession } from '../store/sandbox-store';
import type { Translate } from '../i18n/translator';
import { sandboxSessionState, withoutReturnSecret } from './sandbox';

/** The page's only styles, inline: the CSP allows exactly these by their hash. */
const STYLE = `
  body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; color: #1b1f24; }
  h1 { font-size: 1.3rem; line-height: 1.35; }
  .card { border: 1px solid #d0d7de; border-radius: 12px; padding: 1.5rem; overflow-wrap: anywhere; }
  .amount { font-size: 2rem; font-weight: 600; margin: .25rem 0 1rem; }
  .muted { color: #57606a; }
  .lines { width: 100%; border-collapse: collapse; } .lines td { padding: .25rem 0; } .lines td + td { text-align: right; white-space: nowrap; padding-left: 1rem; }
  button { display: block; width: 100%; padding: .75rem; margin-top: .5rem; font-size: 1rem; border-radius: 8px; border: 1px solid #d0d7de; cursor: pointer; }
  button[value=paid] { background: #1f883d; color: #fff; border-color: #1f883d; }
`;

/**
 * No script, nothing loaded from anywhere, no style but the page's own, no framing. No
 * `form-action`: Chromium holds every redirect that follows a form's POST to it (measured with
 * Chromium 156), and the outcome's POST is answered with a redirect to the API's verify URL, which
 * redirects on to the merchant's success or cancel URL, an origin the sandbox does not know
 * (Stripe's page leaves by script, which form-action does not govern). The page's one form posts
 * to the page itself, and everything on it is escaped.
 */
export const SANDBOX_CHECKOUT_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'`;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * What the page is a payment for: the order's description (a guest booking's names the hotel and
 * the stay). A session opened before guest checkouts were described says `Payment guest:<id>`,
 * the service's own reference, which no guest should read.
 */
const headingOf = (t: Translate, session: SandboxSession) => (/\bguest:/.test(session.description) ? t('checkout.roomBooking') : session.description);

/** The page in `t`'s language (the guest's, for a guest page's order: its description is in it too). */
export function sandboxCheckoutPage(t: Translate, session: SandboxSession): string {
  // The amount with its currency, as the guest's language writes it.
  const amount = t.moneyMinor(session.amount_minor, session.currency);
  const customer = [session.customer.name, session.customer.email].filter(Boolean).join(' · ');
  const state = sandboxSessionState(session);
  const open = state === 'open';
  // Relative: the page's own URL.
  const action = encodeURIComponent(session.provider_reference);
  return `<!doctype html>
<html lang="${t.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t('sandbox.title', { amount }))}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="card">
  <p class="muted">${escapeHtml(t('sandbox.notice'))}</p>
  <h1>${escapeHtml(headingOf(t, session))}</h1>
  ${
    session.lines && session.lines.length > 1
      ? `<table class="lines" data-testid="lines">${session.lines
          .map((line) => `<tr><td>${escapeHtml(line.name)}</td><td>${escapeHtml(t.moneyMinor(line.amount_minor, session.currency))}</td></tr>`)
          .join('')}</table>`
      : ''
  }
  <div class="amount" data-testid="amount">${escapeHtml(amount)}</div>
  <p data-testid="customer">${escapeHtml(customer)}</p>
  ${
    open
      ? `<form method="post" action="${escapeHtml(action)}">
    <button type="submit" name="outcome" value="paid">${escapeHtml(t('sandbox.pay', { amount }))}</button>
    <button type="submit" name="outcome" value="cancelled">${escapeHtml(t('sandbox.cancel'))}</button>
    <button type="submit" name="outcome" value="failed">${escapeHtml(t('sandbox.decline'))}</button>
  </form>`
      : `<p data-testid="state">${escapeHtml(t('sandbox.state', { state }))}</p>
  <p><a href="${escapeHtml(withoutReturnSecret(session.return_url))}">${escapeHtml(t('sandbox.return'))}</a></p>`
  }
</div>
</body>
</html>`;
}
