/**
 * The dashboard's page shell and the small components every page uses. Rendered to a string by
 * preact-render-to-string, which escapes every text and attribute value: no page builds HTML by
 * hand. No script anywhere: every action is a plain form (the CSP allows none).
 */
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Operator } from '../auth/operator-tokens';
import type { Notice } from './notice';

/**
 * A navigation entry's key; `security` is the header's link to the operator's own Security page,
 * `search` the header's search box's page.
 */
export type NavKey = 'overview' | 'rooms' | 'rates' | 'bookings' | 'payments' | 'reports' | 'deliveries' | 'integrations' | 'audit' | 'security' | 'search';

export const NAV: readonly { key: NavKey; label: string; path: string }[] = [
  { key: 'overview', label: 'Overview', path: '/dashboard' },
  { key: 'rooms', label: 'Rooms', path: '/dashboard/rooms' },
  { key: 'rates', label: 'Rates', path: '/dashboard/rates' },
  { key: 'bookings', label: 'Bookings', path: '/dashboard/bookings' },
  { key: 'payments', label: 'Payments', path: '/dashboard/payments' },
  { key: 'reports', label: 'Reports', path: '/dashboard/reports' },
  { key: 'deliveries', label: 'Deliveries', path: '/dashboard/deliveries' },
  { key: 'integrations', label: 'Integrations', path: '/dashboard/integrations' },
  { key: 'audit', label: 'Audit', path: '/dashboard/audit' },
];

/** Links under the stage's base path (`/dashboard/...` locally, `/{stage}/dashboard/...` on API Gateway). */
export interface Links {
  to(path: string, query?: Record<string, string | undefined>): string;
}

export function linksUnder(basePath: string): Links {
  return {
    to(path, query) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') search.set(name, value);
      const qs = search.toString();
      return `${basePath}${path}${qs ? `?${qs}` : ''}`;
    },
  };
}

export function renderDocument(page: VNode): string {
  return `<!doctype html>${renderToString(page)}`;
}

interface ShellProps {
  title: string;
  links: Links;
  /** Reload the page after this many seconds (a plain meta refresh, no script): while an outcome is awaited. */
  refreshSeconds?: number;
  children: ComponentChildren;
}

function Document({ title, links, refreshSeconds, children }: ShellProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {refreshSeconds ? <meta http-equiv="refresh" content={String(refreshSeconds)} /> : null}
        <title>{`${title} · Hotel dashboard`}</title>
        <link rel="stylesheet" href={links.to('/dashboard/style.css')} />
      </head>
      <body>{children}</body>
    </html>
  );
}

export interface PageProps {
  title: string;
  links: Links;
  operator: Operator;
  nav: NavKey;
  notice?: Notice;
  /** See ShellProps. */
  refreshSeconds?: number;
  /**
   * The header's search box; off on the search page itself, whose own form is the one field
   * labelled "Search" there. @default true
   */
  searchBox?: boolean;
  children: ComponentChildren;
}

/** The path of the search page, which the header's search box opens. */
export const SEARCH_PATH = '/dashboard/search';

/** The header's search box: a GET form to the search page, on every signed-in page. */
function SearchBox({ links }: { links: Links }) {
  return (
    <form method="get" action={links.to(SEARCH_PATH)} role="search" class="search">
      <label for="header-search">Search</label>
      <input id="header-search" name="q" type="search" maxLength={100} />
      <button type="submit">Search</button>
    </form>
  );
}

/**
 * A signed-in page: header with the hotel's name, the search box and the operator, navigation, a
 * Sign out button, the notice, the content.
 */
export function Page({ title, links, operator, nav, notice, refreshSeconds, searchBox = true, children }: PageProps) {
  return (
    <Document title={title} links={links} refreshSeconds={refreshSeconds}>
      <header class="top">
        <a class="brand" href={links.to('/dashboard')}>
          {operator.client_name || 'Hotel dashboard'}
        </a>
        {searchBox ? <SearchBox links={links} /> : null}
        <span class="who">
          {operator.email} ({operator.role})
        </span>
        <a href={links.to('/dashboard/security')} aria-current={nav === 'security' ? 'page' : undefined}>
          Security
        </a>
        <form method="post" action={links.to('/dashboard/sign-out')} class="inline">
          <button type="submit">Sign out</button>
        </form>
      </header>
      <nav aria-label="Dashboard" class="nav">
        <ul>
          {NAV.map((item) => (
            <li>
              <a href={links.to(item.path)} aria-current={item.key === nav ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        <h1>{title}</h1>
        {notice ? <NoticeBox notice={notice} /> : null}
        {children}
      </main>
    </Document>
  );
}

/** A page without a session: sign-in, new password. */
export function PublicPage({ title, links, children }: { title: string; links: Links; children: ComponentChildren }) {
  return (
    <Document title={title} links={links}>
      <header class="top">
        <span class="brand">Hotel dashboard</span>
      </header>
      <main class="narrow">
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  );
}

export function NoticeBox({ notice }: { notice: Notice }) {
  return (
    <div class={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <p>{notice.message}</p>
      {notice.secret ? (
        <p>
          {notice.secret.label}: <code class="secret">{notice.secret.value}</code>
          <br />
          <small>Copy it now: it is not shown again.</small>
        </p>
      ) : null}
    </div>
  );
}

/**
 * The GOV.UK error summary: at the top of a form that came back with errors, a box headed "There
 * is a problem" listing each error as a link to its field (`#f-NAME`, the id Field and Select
 * give their control), and what belongs to no field as plain text. Nothing when there is no error.
 * https://design-system.service.gov.uk/components/error-summary/
 */
export function ErrorSummary({
  errors,
  labels = {},
  title = 'There is a problem',
}: {
  errors: Readonly<Record<string, string | undefined>>;
  labels?: Readonly<Record<string, string>>;
  /** The summary's heading (the guest pages': in the guest's language). */
  title?: string;
}) {
  const entries = Object.entries(errors).filter((entry): entry is [string, string] => Boolean(entry[1]));
  if (entries.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <h2 id="error-summary-title">{title}</h2>
      <ul>
        {entries.map(([field, message]) =>
          field === 'form' || field === 'general' ? (
            <li>{message}</li>
          ) : (
            <li>
              <a href={`#f-${field}`}>{labels[field] ? `${labels[field]}: ${message}` : message}</a>
            </li>
          ),
        )}
      </ul>
    </div>
  );
}

/** A labelled form field; its error, if any, right next to it. */
export function Field(props: {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'tel' | 'url' | 'hidden';
  value?: string;
  error?: string;
  required?: boolean;
  autocomplete?: string;
  min?: string;
  step?: string;
  hint?: string;
  /** The keyboard a phone shows: `numeric` for a code. */
  inputmode?: 'numeric';
  /** The field's key in the error summary, where one page has several forms with a field of this name. */
  key_?: string;
}) {
  const id = `f-${props.key_ ?? props.name}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        inputMode={props.inputmode}
        min={props.min}
        step={props.step}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described}
      />
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={`${id}-error`} class="field-error">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}

export function Select(props: { label: string; name: string; options: readonly { value: string; label: string }[]; value?: string; error?: string }) {
  const id = `f-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-invalid={props.error ? 'true' : undefined} aria-describedby={props.error ? `${id}-error` : undefined}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.error ? (
        <small id={`${id}-error`} class="field-error">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}

/** A one-button POST form (Retry, Revoke, Rotate secret). */
export function ActionButton({ action, label, name }: { action: string; label: string; name?: string }) {
  return (
    <form method="post" action={action} class="inline">
      <button type="submit" aria-label={name}>
        {label}
      </button>
    </form>
  );
}

/** "Next page" from DynamoDB's LastEvaluatedKey (an opaque cursor), keeping the filters. */
export function Pager({ links, path, query, cursor }: { links: Links; path: string; query?: Record<string, string | undefined>; cursor?: string }) {
  return (
    <nav aria-label="Pages" class="pager">
      <a href={links.to(path, { ...query, cursor: undefined })}>First page</a>
      {cursor ? <a href={links.to(path, { ...query, cursor })}>Next page</a> : <span>Last page</span>}
    </nav>
  );
}

/** A table of rows under column headings, in a box that scrolls sideways on a phone (and takes keyboard focus to do so). */
export function Table({ head, children }: { head: readonly string[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0}>
      <table>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Dl({ rows }: { rows: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {rows.map(([term, value]) => (
        <>
          <dt>{term}</dt>
          <dd>{value ?? '—'}</dd>
        </>
      ))}
    </dl>
  );
}
