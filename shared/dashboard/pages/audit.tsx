/**
 * Audit: every operator action of the client (dashboard and CLI), newest first, in words: when,
 * who, what they did and to what (a booking by its reference and guest, a room by number), never
 * an action's code or an id; `?target=` keeps the entries about one record ("Entries about it").
 */
import { type AuditEntry, listAudit } from '../../domain/audit';
import { type AuditSubjects, auditSubjects } from '../../domain/audit-subjects';
import { findClient } from '../../domain/clients';
import { auditSentence } from '../audit-words';
import { timeZoneOf } from '../../domain/client-settings';
import { formatTime } from '../format';
import { Empty, type Links, Page, Pager, Table } from '../layout';
import type { PageAction } from '../page-function';

const PAGE = '/dashboard/audit';
const PAGE_SIZE = 50;

const limitOf = (query: Record<string, string>) => (query.limit === undefined || query.limit === '' ? PAGE_SIZE : Number(query.limit));

/** What the entry was about, in words, linked to its page where it has one; null when it names nothing. */
function aboutOf(entry: AuditEntry, subjects: AuditSubjects, links: Links): { label: string; href?: string } | null {
  const booking = subjects.bookings.get(entry.id);
  if (booking) {
    return { label: booking.reference ? `Booking ${booking.reference} · ${booking.guest_name}` : `Booking of ${booking.guest_name}`, href: links.to(`/dashboard/bookings/${encodeURIComponent(booking.booking_id)}`) };
  }
  const c = entry.changes;
  if (entry.action.startsWith('booking.')) return { label: 'A booking no longer there' };
  if (entry.action === 'delivery.retry') return { label: 'A notification to your PMS', ...(entry.target ? { href: links.to(`/dashboard/deliveries/${encodeURIComponent(entry.target)}`) } : {}) };
  if (entry.action.startsWith('room.') && c.room_number) return { label: `Room ${String(c.room_number)}`, href: links.to('/dashboard/rooms') };
  if (entry.action.startsWith('key.') && c.kind) return { label: `${String(c.kind) === 'sync' ? 'Sync' : 'Payment'} key${c.name ? ` "${String(c.name)}"` : ''}` };
  if (entry.action.startsWith('operator.') && entry.target) return { label: entry.target };
  return null;
}

function About({ entry, subjects, links }: { entry: AuditEntry; subjects: AuditSubjects; links: Links }) {
  const about = aboutOf(entry, subjects, links);
  return (
    <>
      {about ? about.href ? <a href={about.href}>{about.label}</a> : about.label : '—'}
      {entry.target ? (
        <>
          <br />
          <a href={links.to(PAGE, { target: entry.target })} class="muted">
            Entries about it
          </a>
        </>
      ) : null}
    </>
  );
}

export const auditPage: PageAction = async (request) => {
  const { links, query, operator } = request;
  const target = query.target?.trim() || undefined;
  const [page, client] = await Promise.all([listAudit(operator.client_id, { limit: limitOf(query), cursor: query.cursor || undefined, target }), findClient(operator.client_id)]);
  const subjects = await auditSubjects(operator.client_id, page.entries);
  const roomLabel = (entry: AuditEntry) => {
    const room = subjects.rooms.get(entry.id);
    return room ? `${room.number} (${room.category})` : undefined;
  };
  const zone = client ? timeZoneOf(client) : 'UTC';
  const about = target && page.entries[0] ? aboutOf(page.entries[0], subjects, links) : null;
  return {
    html: (
      <Page title="Audit" links={links} operator={operator} nav="audit" notice={request.notice}>
        <p class="muted">Every action of your hotel's staff, newest first.</p>
        {target ? (
          <p>
            Only the entries about {about ? about.label : 'one record'} · <a href={links.to(PAGE)}>All entries</a>
          </p>
        ) : null}
        <h2>Entries</h2>
        {page.entries.length === 0 ? (
          <Empty>{target ? 'No entries about this record.' : 'No actions recorded yet.'}</Empty>
        ) : (
          <Table head={['Time', 'Who', 'What happened', 'About']}>
            {page.entries.map((entry) => (
              <tr>
                <td>{formatTime(zone, entry.at)}</td>
                <td>{entry.operator}</td>
                <td>{auditSentence(entry, { roomLabel: roomLabel(entry), currency: client?.currency, timeZone: zone })}</td>
                <td>
                  <About entry={entry} subjects={subjects} links={links} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager links={links} path={PAGE} query={{ target, limit: query.limit || undefined }} cursor={page.next_cursor} />
      </Page>
    ),
  };
};
