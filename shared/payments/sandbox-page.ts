/** The sandbox provider's hosted checkout page. */
import { majorAmount } from '../schemas/payments';
import type { SandboxSession } from './sandbox';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function sandboxCheckoutPage(session: SandboxSession): string {
  const amount = `${majorAmount(session.amount_minor, session.currency)} ${session.currency}`;
  const customer = [session.customer.name, session.customer.email].filter(Boolean).join(' · ');
  const open = session.state === 'open';
  // Relative: the page's own URL, whatever stage prefix the API has.
  const action = encodeURIComponent(session.provider_reference);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · ${escapeHtml(amount)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #1b1f24; }
  .card { border: 1px solid #d0d7de; border-radius: 12px; padding: 1.5rem; }
  .amount { font-size: 2rem; font-weight: 600; margin: .25rem 0 1rem; }
  .muted { color: #57606a; }
  button { display: block; width: 100%; padding: .75rem; margin-top: .5rem; font-size: 1rem; border-radius: 8px; border: 1px solid #d0d7de; cursor: pointer; }
  button[value=paid] { background: #1f883d; color: #fff; border-color: #1f883d; }
</style>
</head>
<body>
<div class="card">
  <p class="muted">Sandbox payment provider — no real money moves.</p>
  <h1>${escapeHtml(session.description)}</h1>
  <div class="amount" data-testid="amount">${escapeHtml(amount)}</div>
  <p data-testid="customer">${escapeHtml(customer)}</p>
  ${
    open
      ? `<form method="post" action="${escapeHtml(action)}">
    <button type="submit" name="outcome" value="paid">Pay ${escapeHtml(amount)}</button>
    <button type="submit" name="outcome" value="cancelled">Cancel</button>
    <button type="submit" name="outcome" value="failed">Simulate a declined card</button>
  </form>`
      : `<p data-testid="state">This checkout is ${escapeHtml(session.state)}.</p>
  <p><a href="${escapeHtml(session.return_url)}">Return to the merchant</a></p>`
  }
</div>
</body>
</html>`;
}
