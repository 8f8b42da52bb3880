/**
 * Audit: every operator action of the client (dashboard and CLI), newest first: when, who, what,
 * on which record, and what changed; `?target=` keeps the entries about one record.
 */
import { listAudit } from '../../domain/audit';
import { Empty, Field, Page, Pager, Table } from '../layout';
import type { PageAction } from '../page-function';
import { formatTime as when } from '../format';

const PAGE = '/dashboard/audit';
const PAGE_SIZE = 50;

const limitOf = (query: Record<string, string>) => (query.limit === undefined || query.limit === '' ? PAGE_SIZE : Number(query.limit));
const shown = (value: string | number | boolean | null) => (value === null ? '—' : String(value));

export const auditPage: PageAction = async (request) => {
  const { links, query } = request;
  const target = query.target?.trim() || undefined;
  const page = await listAudit(request.operator.client_id, { limit: limitOf(query), cursor: query.cursor || undefined, target });
  return {
    html: (
      <Page title="Audit" links={links} operator={request.operator} nav="audit" notice={request.notice}>
        <p class="muted">Every action of your hotel's operators, newest first.</p>
        <form method="get" action={links.to(PAGE)} class="filters" aria-label="Filter the audit">
          <Field label="Target" name="target" value={target} hint="A record's id, e.g. a delivery id or a key id" />
          {query.limit ? <input type="hidden" name="limit" value={query.limit} /> : null}
          <button type="submit">Filter</button>
        </form>
        {target ? (
          <p>
            Entries about <code>{target}</code> · <a href={links.to(PAGE)}>All entries</a>
          </p>
        ) : null}
        <h2>Entries</h2>
        {page.entries.length === 0 ? (
          <Empty>{target ? 'No entries about this record.' : 'No actions recorded yet.'}</Empty>
        ) : (
          <Table head={['Time', 'Operator', 'Action', 'Target', 'Changes']}>
            {page.entries.map((entry) => {
              // By name: the table keeps no order of its own. A replaced value shows as old → new.
              const previous = entry.previous ?? {};
              const names = [...new Set([...Object.keys(entry.changes), ...Object.keys(previous)])].sort((a, b) => a.localeCompare(b));
              const changes = names.map((name) => [name, name in previous ? `${shown(previous[name]!)} → ${shown(entry.changes[name] ?? null)}` : shown(entry.changes[name]!)] as const);
              return (
                <tr>
                  <td>{when(entry.at)}</td>
                  <td>{entry.operator}</td>
                  <td>{entry.action}</td>
                  <td>
                    {entry.target ? (
                      <a href={links.to(PAGE, { target: entry.target })}>
                        <code>{entry.target}</code>
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    {changes.length === 0 ? (
                      '—'
                    ) : (
                      <ul class="changes">
                        {changes.map(([name, value]) => (
                          <li>
                            {name}: {value}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
        <Pager links={links} path={PAGE} query={{ target, limit: query.limit || undefined }} cursor={page.next_cursor} />
      </Page>
    ),
  };
};
