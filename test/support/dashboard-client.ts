/**
 * A dashboard user over plain HTTP: a cookie jar, forms posted with the service's own Origin
 * (as a browser does), redirects followed by hand so a test can look at each step.
 */
import { randomUUID } from 'node:crypto';
import type { TestStack } from './stack';

export const OPERATOR_PASSWORD = 'Correct-horse-42';

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Where a 303 pointed (path and query under the stack URL). */
  location?: string;
}

export class DashboardClient {
  private readonly jar = new Map<string, string>();

  constructor(
    /** The stack whose dashboard it signs in to (only its URL: the bench's stack serves too). */
    readonly stack: Pick<TestStack, 'url'>,
    readonly email: string,
  ) {}

  private cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((a) => a.trim().toLowerCase() === 'max-age=0');
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<PageResponse> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form ?? {})) for (const v of [value].flat()) body.append(name, v);
    const response = await fetch(`${this.stack.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(),
        ...(method === 'POST' ? { origin: this.stack.url, 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: method === 'POST' ? body.toString() : undefined,
    });
    this.keep(response.headers);
    const location = response.headers.get('location') ?? undefined;
    return { status: response.status, headers: response.headers, text: await response.text(), location };
  }

  get(path: string): Promise<PageResponse> {
    return this.request('GET', path);
  }

  /** POSTs a form and, when answered with a redirect, GETs where it points (POST-redirect-GET). */
  async submit(path: string, form: Record<string, string | string[]> = {}): Promise<PageResponse> {
    const posted = await this.request('POST', path, form);
    if (posted.status !== 303 || !posted.location) return posted;
    return this.get(posted.location);
  }

  /**
   * Submits a form whose action asks for the password again (a payment key, a callback or webhook
   * URL, the payment provider): when the answer is the "Confirm your password" page, submits that
   * page's form (the fields it carries back) with `password`, as a person would.
   */
  async submitConfirmed(path: string, form: Record<string, string | string[]> = {}, password = OPERATOR_PASSWORD): Promise<PageResponse> {
    const posted = await this.request('POST', path, form);
    if (!isPasswordPrompt(posted)) return posted.status === 303 && posted.location ? this.get(posted.location) : posted;
    const prompt = passwordPromptForm(posted.text);
    return this.submit(prompt.action.slice(new URL(this.stack.url).pathname.replace(/\/$/, '').length), { ...prompt.fields, current_password: password });
  }

  async signIn(password = OPERATOR_PASSWORD): Promise<PageResponse> {
    return this.submit('/dashboard/sign-in', { email: this.email, password });
  }

  /** A cookie of the jar (e.g. to hand another client's cookie over). */
  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  hasSession(): boolean {
    return this.jar.has('dashboard_id');
  }
}

/** A new operator of `clientId` with a permanent password, signed in. */
export async function signedInOperator(stack: TestStack, clientId: string, role: 'admin' | 'staff'): Promise<DashboardClient> {
  const { createOperator } = await import('../../shared/domain/operators');
  const email = `${role}-${randomUUID().slice(0, 8)}@hotel.example`;
  await createOperator({ clientId, email, role, password: OPERATOR_PASSWORD });
  const client = new DashboardClient(stack, email);
  const page = await client.signIn();
  if (page.status !== 200) throw new Error(`sign-in answered ${page.status}: ${page.text.slice(0, 300)}`);
  return client;
}

/** The "Confirm your password" page an action answers with when the password was not confirmed in the last 5 minutes. */
export function isPasswordPrompt(page: PageResponse): boolean {
  return page.status === 200 && page.text.includes('aria-label="Confirm your password"');
}

const unescape = (value: string) =>
  value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The password page's form: where it posts and the hidden fields it carries back (a field given twice, as a list). */
export function passwordPromptForm(html: string): { action: string; fields: Record<string, string | string[]> } {
  const form = /<form method="post" action="([^"]+)" aria-label="Confirm your password">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no "Confirm your password" form on the page');
  const fields: Record<string, string | string[]> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) {
    const [name, value] = [unescape(input[1]!), unescape(input[2]!)];
    const had = fields[name];
    fields[name] = had === undefined ? value : [had].flat().concat(value);
  }
  return { action: unescape(form[1]!), fields };
}

/** The visible text of an HTML fragment, whitespace folded (for assertions on what a person reads). */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
