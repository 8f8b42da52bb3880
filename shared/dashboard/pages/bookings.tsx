/**
 * Bookings (CONTRACT.md "Hotel dashboard"): every origin with filters and pages, the paid
 * bookings awaiting a room first, a detail page per booking with its history, a reception booking
 * ("New booking") and a room for a paid booking recorded for manual assignment ("Assign room").
 * Every action is the use case the ops CLI calls (`bookings list|create|assign`); the client is
 * the operator's own, so another client's booking is simply not found (404).
 */
import { recordAudit, listAudit, type AuditEntry } from '../../domain/audit';
import { assignBookingRoom } from '../../domain/bookings/assign-room';
import { type BookingListFilters, type BookingView, bookingView, listClientBookings } from '../../domain/bookings/list-bookings';
import { createReceptionBooking, receptionBookingProblems } from '../../domain/bookings/reception-bookings';
import { confirmationEmailOf } from '../../domain/guest-email/outbox';
import { byRoomNumber, findAvailableRooms } from '../../domain/property-sync/availability';
import { AppError, type ErrorDetail } from '../../errors';
import { logger } from '../../observability';
import { BOOKING_ORIGINS } from '../../schemas/bookings';
import { nightsBetween } from '../../schemas/common';
import { BOOKING_STATUSES } from '../../schemas/property-sync';
import { getBooking, listRooms } from '../../store/property-store';
import type { EmailRecord } from '../../store/email-store';
import { getRoom } from '../../store/service-booking-store';
import { formatTime as when } from '../format';
import { Dl, Empty, Field, type Links, NoticeBox, Page, Pager, Select, Table } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';

const LIST = '/dashboard/bookings';
/** Bookings per page of the list (a `limit` query parameter, 1 to 100, overrides it). */
export const BOOKINGS_PER_PAGE = 25;

type FieldErrors = Record<string, string>;
type AuditChanges = Record<string, string | number | boolean | null>;

const bookingPath = (bookingId: string) => `${LIST}/${encodeURIComponent(bookingId)}`;
const assignPath = (bookingId: string) => `${bookingPath(bookingId)}/assign`;
const amount = (value: number | null) => (value === null ? '—' : String(value));
const roomLabel = (room: { room_number: string; room_type: string }) => `${room.room_number} (${room.room_type})`;
const nights = (b: { check_in_date: string; check_out_date: string }) => nightsBetween(b.check_in_date, b.check_out_date);
const byStay = (a: BookingView, b: BookingView) =>
  `${a.check_in_date}#${a.check_out_date}#${a.booking_id}`.localeCompare(`${b.check_in_date}#${b.check_out_date}#${b.booking_id}`);

/** Ids this service mints (UUIDs); anything else names no booking, so it is not looked up. */
const BOOKING_ID = /^[A-Za-z0-9-]{1,128}$/;

/** Errors a person can act on (refusals of the use case, a lost race): the form comes back with them. */
function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && (error.status < 500 || error.status === 503);
}

/**
 * A refusal's details as messages next to their fields (`fields`: detail path to form field);
 * what belongs to no field, as one message for the top of the form.
 */
function splitErrors(error: AppError, fields: Record<string, string>): { fields: FieldErrors; general?: string } {
  const byField: FieldErrors = {};
  const general: string[] = [];
  for (const detail of error.details ?? ([] as ErrorDetail[])) {
    const field = fields[detail.path];
    if (field === undefined) general.push(`${detail.path}: ${detail.message}`);
    else byField[field] ??= detail.message;
  }
  if (!error.details?.length) general.push(error.message);
  return { fields: byField, ...(general.length ? { general: general.join('; ') } : {}) };
}

function ErrorBox({ message }: { message?: string }) {
  return message ? <NoticeBox notice={{ kind: 'error', message }} /> : null;
}

/** The booking as the operator's client has it; 404 for an unknown id or another client's. */
async function requireBooking(request: PageRequest): Promise<BookingView> {
  const bookingId = request.params.booking_id ?? '';
  const notFound = () => new AppError(404, 'NOT_FOUND', 'There is no such booking.');
  if (!BOOKING_ID.test(bookingId)) throw notFound();
  const clientId = request.operator.client_id;
  const booking = await getBooking(clientId, bookingId);
  if (!booking) throw notFound();
  const room = booking.room_id ? await getRoom(clientId, booking.room_id) : undefined;
  return bookingView(booking, () => room?.room_number);
}

const bookingTitle = (b: BookingView) => `Booking ${b.booking_reference ?? b.external_booking_id ?? b.booking_id}`;

/** The audit about a record; recording it never undoes the action it follows. */
async function audit(request: PageRequest, action: string, target: string, changes: AuditChanges): Promise<void> {
  try {
    await recordAudit(request.operator.client_id, { operator: request.operator.email, action, target, changes }, request.now);
  } catch (error) {
    logger.error('could not record an audit entry', { action, target, error: error as Error });
  }
}

// ---- the list

const FILTERS = ['from', 'to', 'status', 'origin'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number] | 'limit', string>>;

function filtersOf(query: Record<string, string>): Filters {
  const filters: Filters = {};
  for (const name of [...FILTERS, 'limit'] as const) {
    const value = query[name]?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

const ANY = { value: '', label: 'Any' };

function FilterForm({ links, filters, errors }: { links: Links; filters: Filters; errors: FieldErrors }) {
  return (
    <form method="get" action={links.to(LIST)} class="filters" aria-label="Filter bookings">
      <Field label="From" name="from" type="date" value={filters.from} error={errors.from} />
      <Field label="To" name="to" type="date" value={filters.to} error={errors.to} />
      <Select label="Status" name="status" value={filters.status ?? ''} error={errors.status} options={[ANY, ...BOOKING_STATUSES.map((s) => ({ value: s, label: s }))]} />
      <Select label="Origin" name="origin" value={filters.origin ?? ''} error={errors.origin} options={[ANY, ...BOOKING_ORIGINS.map((o) => ({ value: o, label: o }))]} />
      {filters.limit ? <input type="hidden" name="limit" value={filters.limit} /> : null}
      <button type="submit">Filter</button>
    </form>
  );
}

function roomCell(b: BookingView) {
  if (b.room_number) return b.room_number;
  return b.awaiting_room ? <strong>Awaiting a room</strong> : '—';
}

/** "Assign room": a GET form, so it is a button that opens the assignment form (no script). */
function AssignRoomButton({ links, booking, describedBy }: { links: Links; booking: BookingView; describedBy?: string }) {
  return (
    <form method="get" action={links.to(assignPath(booking.booking_id))} class="inline">
      <button type="submit" aria-describedby={describedBy}>
        Assign room
      </button>
    </form>
  );
}

function AwaitingTable({ links, bookings }: { links: Links; bookings: BookingView[] }) {
  if (bookings.length === 0) return <Empty>No paid booking is waiting for a room.</Empty>;
  return (
    <Table head={['Guest', 'Check-in', 'Check-out', 'Guests', 'Paid', 'Room']}>
      {bookings.map((b) => (
        <tr>
          <td id={`awaiting-${b.booking_id}`}>
            <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
          </td>
          <td>{b.check_in_date}</td>
          <td>{b.check_out_date}</td>
          <td>{b.guests}</td>
          <td>{amount(b.total_amount)}</td>
          <td>
            <AssignRoomButton links={links} booking={b} describedBy={`awaiting-${b.booking_id}`} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

function BookingsTable({ links, bookings }: { links: Links; bookings: BookingView[] }) {
  if (bookings.length === 0) return <Empty>No bookings match.</Empty>;
  return (
    <Table head={['Guest', 'Check-in', 'Check-out', 'Room', 'Status', 'Origin', 'Payment', 'Reference']}>
      {bookings.map((b) => (
        <tr>
          <td>
            <a href={links.to(bookingPath(b.booking_id))}>{b.guest_name}</a>
          </td>
          <td>{b.check_in_date}</td>
          <td>{b.check_out_date}</td>
          <td>{roomCell(b)}</td>
          <td>{b.status}</td>
          <td>{b.origin}</td>
          <td>
            {b.payment_status}
            {b.below_rate ? <strong class="status-failed"> · paid below rate</strong> : null}
          </td>
          <td>{b.booking_reference ?? (b.external_booking_id ? `${b.external_source ?? ''} ${b.external_booking_id}`.trim() : '—')}</td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * The paid bookings still waiting for a room. No index names them: the client's bookings of
 * origin `payment` are read whole (the same Query as the list, pattern 23) and those with no room
 * kept, in stay order.
 */
async function awaitingRoom(clientId: string): Promise<BookingView[]> {
  const { bookings } = await listClientBookings(clientId, { origin: 'payment' });
  return bookings.filter((b) => b.awaiting_room).sort(byStay);
}

export const bookingsPage: PageAction = async (request) => {
  const { operator, links, query } = request;
  const filters = filtersOf(query);
  const { limit, ...listFilters } = filters;
  const page = { limit: limit === undefined ? BOOKINGS_PER_PAGE : /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN, cursor: query.cursor || undefined };
  const [awaiting, listed] = await Promise.all([
    awaitingRoom(operator.client_id),
    listClientBookings(operator.client_id, listFilters as BookingListFilters, page).then(
      (found) => ({ found }),
      (error: unknown) => {
        if (error instanceof AppError && error.status === 400) return { error };
        throw error;
      },
    ),
  ]);
  const problems = 'error' in listed ? splitErrors(listed.error, { from: 'from', to: 'to', status: 'status', origin: 'origin' }) : { fields: {} };
  return {
    status: 'error' in listed ? 400 : 200,
    html: (
      <Page title="Bookings" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <div class="actions">
          <a class="button-link" href={links.to(`${LIST}/new`)}>
            New booking
          </a>
        </div>
        <h2>Awaiting a room</h2>
        <AwaitingTable links={links} bookings={awaiting} />
        <h2>All bookings</h2>
        <ErrorBox message={problems.general} />
        <FilterForm links={links} filters={filters} errors={problems.fields} />
        {'found' in listed ? (
          <>
            <BookingsTable links={links} bookings={[...listed.found.bookings].sort(byStay)} />
            <Pager links={links} path={LIST} query={filters} cursor={listed.found.next_cursor ?? undefined} />
          </>
        ) : (
          <Empty>Correct the filters to see the bookings.</Empty>
        )}
      </Page>
    ),
  };
};

// ---- one booking

function HistoryTable({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <Empty>No operator has acted on this booking.</Empty>;
  return (
    <Table head={['When', 'Operator', 'Action', 'Changes']}>
      {entries.map((entry) => (
        <tr>
          <td>{when(entry.at)}</td>
          <td>{entry.operator}</td>
          <td>{entry.action}</td>
          <td>
            {Object.entries(entry.changes)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, value]) => `${name}: ${value === null ? '—' : String(value)}`)
              .join(', ') || '—'}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** What became of a guest booking's confirmation e-mail, for staff. */
function emailStatus(email: EmailRecord): string {
  const tries = `${email.attempts} ${email.attempts === 1 ? 'try' : 'tries'}`;
  switch (email.status) {
    case 'sent':
      return `sent at ${when(email.sent_at)} to ${email.to}`;
    case 'pending':
      return `not sent yet (to ${email.to})`;
    case 'retrying':
      return `failed, will retry at ${when(email.due_at)} (${tries} to ${email.to}; last error: ${email.last_error ?? 'unknown'})`;
    case 'failed':
      return `failed after ${tries} to ${email.to}, not retried (last error: ${email.last_error ?? 'unknown'})`;
    case 'expired':
      return 'not sent: it was no longer needed';
  }
}

export const bookingPage: PageAction = async (request) => {
  const { operator, links } = request;
  const booking = await requireBooking(request);
  const [{ entries }, email] = await Promise.all([
    listAudit(operator.client_id, { target: booking.booking_id }),
    // Guest bookings only: the e-mail that told the guest (CONTRACT.md "Guest booking").
    confirmationEmailOf(operator.client_id, booking.booking_id),
  ]);
  const b = booking;
  return {
    html: (
      <Page title={bookingTitle(b)} links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(LIST)}>All bookings</a>
        </p>
        {b.awaiting_room ? (
          <div class="actions">
            <strong>This paid booking is waiting for a room.</strong>
            <AssignRoomButton links={links} booking={b} />
          </div>
        ) : null}
        <Dl
          rows={[
            ['Guest name', b.guest_name],
            ['Guest email', b.guest_email],
            ['Guests', b.guests],
            ['Check-in', b.check_in_date],
            ['Check-out', b.check_out_date],
            ['Nights', nights(b)],
            ['Room', b.room_number ?? (b.awaiting_room ? 'Awaiting a room' : null)],
            ['Status', b.status],
            ['Origin', b.origin],
            ['Payment status', b.payment_status],
            ['Payment method', b.payment_method],
            ['Total amount', b.total_amount === null ? null : amount(b.total_amount)],
            ...(b.below_rate ? [['Rate check', <strong class="status-failed">Paid below the room's rate (or in another currency): check the payment before the guest arrives</strong>] as const] : []),
            ['Booking reference', b.booking_reference],
            ['Confirmation code', b.confirmation_code],
            ...(email ? [['Confirmation e-mail', emailStatus(email)] as const] : []),
            [
              'Payment order',
              b.payment_order_reference ? <a href={links.to(`/dashboard/payments/${encodeURIComponent(b.payment_order_reference)}`)}>{b.payment_order_reference}</a> : null,
            ],
            ['External source', b.external_source],
            ['External booking id', b.external_booking_id],
            ['Booking id', <code>{b.booking_id}</code>],
            ['Created', when(b.created_at)],
            ['Updated', when(b.updated_at)],
          ]}
        />
        <h2>History</h2>
        <HistoryTable entries={entries} />
      </Page>
    ),
  };
};

// ---- a reception booking

/** Form field names, each the use case's input field of the same name. */
const NEW_BOOKING_FIELDS = ['room_id', 'guest_name', 'guest_email', 'guest_phone', 'check_in_date', 'check_out_date', 'guests', 'total_amount'] as const;
type NewBookingValues = Partial<Record<(typeof NEW_BOOKING_FIELDS)[number], string>>;

async function roomOptions(clientId: string) {
  const rooms = (await listRooms(clientId)).filter((room) => room.is_active).sort(byRoomNumber);
  return [{ value: '', label: 'Choose a room' }, ...rooms.map((room) => ({ value: room.id, label: roomLabel(room) }))];
}

async function newBookingPage(request: PageRequest, values: NewBookingValues, errors: FieldErrors, general?: string, status = 200): Promise<PageOutcome> {
  const { operator, links } = request;
  const rooms = await roomOptions(operator.client_id);
  return {
    status,
    html: (
      <Page title="New booking" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          A reception booking: the room is held for the stay at once, the guest pays at the property, and your PMS receives booking.confirmed.
        </p>
        <ErrorBox message={general} />
        {rooms.length === 1 ? <Empty>There are no active rooms yet: add one on the Rooms page first.</Empty> : null}
        <form method="post" action={links.to(LIST)}>
          <Select label="Room" name="room_id" value={values.room_id ?? ''} options={rooms} error={errors.room_id} />
          <Field label="Guest name" name="guest_name" value={values.guest_name} error={errors.guest_name} required autocomplete="off" />
          <Field label="Guest email" name="guest_email" type="email" value={values.guest_email} error={errors.guest_email} required autocomplete="off" />
          <Field label="Guest phone" name="guest_phone" type="tel" value={values.guest_phone} error={errors.guest_phone} autocomplete="off" hint="Optional, in international form: +14155550123" />
          <Field label="Check-in" name="check_in_date" type="date" value={values.check_in_date} error={errors.check_in_date} required />
          <Field label="Check-out" name="check_out_date" type="date" value={values.check_out_date} error={errors.check_out_date} required />
          <Field label="Guests" name="guests" type="number" min="1" step="1" value={values.guests ?? (errors.guests ? undefined : '1')} error={errors.guests} required />
          <Field label="Total amount" name="total_amount" type="number" min="0" step="any" value={values.total_amount} error={errors.total_amount} required />
          <button type="submit">Create booking</button>
        </form>
      </Page>
    ),
  };
}

export const newBookingForm: PageAction = async (request) => newBookingPage(request, {}, {});

const numberOrUndefined = (value: string) => (value === '' ? undefined : Number(value));

export const createBooking: PageAction = async (request) => {
  const { operator, form } = request;
  const values: NewBookingValues = {};
  for (const name of NEW_BOOKING_FIELDS) values[name] = (form.get(name) ?? '').trim();
  const fieldOf = Object.fromEntries(NEW_BOOKING_FIELDS.map((name) => [name, name]));
  const again = (error: AppError) => {
    const split = splitErrors(error, fieldOf);
    // A room the use case refuses (taken, inactive, too small, unknown) is the Room field's problem.
    if (!error.details?.length && (error.code === 'ROOM_NOT_AVAILABLE' || error.code === 'NOT_FOUND')) {
      return newBookingPage(request, values, { room_id: error.message }, undefined, error.status);
    }
    return newBookingPage(request, values, split.fields, split.general, error.status);
  };

  const input = {
    guest_name: values.guest_name,
    guest_email: values.guest_email,
    guest_phone: values.guest_phone || undefined,
    check_in_date: values.check_in_date,
    check_out_date: values.check_out_date,
    guests: numberOrUndefined(values.guests!),
    total_amount: numberOrUndefined(values.total_amount!),
  };
  // Every field's problem at once, the CLI's rules; an empty field reads better as "Required".
  const details = receptionBookingProblems(input).map((d) => (values[d.path as keyof NewBookingValues] === '' ? { ...d, message: 'Required' } : d));
  if (!values.room_id) details.unshift({ path: 'room_id', message: 'Choose a room' });
  if (details.length) return again(new AppError(400, 'VALIDATION_ERROR', 'The booking is not valid', details));
  let confirmed;
  try {
    confirmed = await createReceptionBooking(operator.client_id, values.room_id!, input, request.now);
  } catch (error) {
    if (isRefusal(error)) return again(error);
    throw error;
  }
  const { booking, room } = confirmed;
  await audit(request, 'booking.create', booking.id, {
    origin: booking.origin,
    booking_reference: booking.booking_reference ?? null,
    room_id: room?.id ?? null,
    room_number: room?.room_number ?? null,
    guest_name: booking.guest_name,
    check_in_date: booking.check_in_date,
    check_out_date: booking.check_out_date,
    guests: booking.guests,
    total_amount: booking.total_amount ?? null,
  });
  return {
    redirect: bookingPath(booking.id),
    notice: { kind: 'success', message: `Booking ${booking.booking_reference} created. Confirmation code: ${booking.confirmation_code}.` },
  };
};

// ---- assigning a room

async function assignRoomPage(request: PageRequest, booking: BookingView, options: { roomId?: string; error?: string; status?: number } = {}): Promise<PageOutcome> {
  const { operator, links } = request;
  const b = booking;
  let body;
  if (!b.awaiting_room) {
    const why = b.room_number ? `This booking already has room ${b.room_number}.` : 'Only a paid booking waiting for a room can be given one here.';
    body = <NoticeBox notice={{ kind: 'error', message: options.error ?? why }} />;
  } else {
    // Only the active rooms large enough and free for every night of the stay (the availability rules).
    const { available_rooms } = await findAvailableRooms(operator.client_id, { check_in_date: b.check_in_date, check_out_date: b.check_out_date, guests: b.guests });
    const options_ = [{ value: '', label: 'Choose a room' }, ...available_rooms.map((room) => ({ value: room.id, label: roomLabel(room) }))];
    body = (
      <>
        {available_rooms.length === 0 ? <Empty>No room is free for every night of this stay.</Empty> : null}
        <form method="post" action={links.to(assignPath(b.booking_id))}>
          <Select label="Room" name="room_id" value={options.roomId ?? ''} options={options_} error={options.error} />
          <button type="submit">Assign</button>
        </form>
      </>
    );
  }
  return {
    status: options.status ?? (b.awaiting_room ? 200 : 409),
    html: (
      <Page title="Assign room" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(bookingPath(b.booking_id))}>{bookingTitle(b)}</a>
        </p>
        <Dl
          rows={[
            ['Guest name', b.guest_name],
            ['Guests', b.guests],
            ['Check-in', b.check_in_date],
            ['Check-out', b.check_out_date],
            ['Nights', nights(b)],
            ['Payment status', b.payment_status],
          ]}
        />
        {body}
      </Page>
    ),
  };
}

export const assignRoomForm: PageAction = async (request) => assignRoomPage(request, await requireBooking(request));

export const assignRoom: PageAction = async (request) => {
  const booking = await requireBooking(request);
  const roomId = (request.form.get('room_id') ?? '').trim();
  if (!roomId) return assignRoomPage(request, booking, { error: 'Choose a room', status: 400 });
  let assigned;
  try {
    assigned = await assignBookingRoom(request.operator.client_id, booking.booking_id, roomId, request.now);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    // The booking as it is now (another operator may just have given it a room).
    const current = await requireBooking(request);
    return assignRoomPage(request, current, { roomId, error: error.message, status: error.status });
  }
  const { booking: updated, room, delivery_id } = assigned;
  await audit(request, 'booking.assign_room', updated.id, {
    room_id: room.id,
    room_number: room.room_number,
    check_in_date: updated.check_in_date,
    check_out_date: updated.check_out_date,
    booking_confirmed_delivery: delivery_id ?? null,
  });
  return { redirect: bookingPath(updated.id), notice: { kind: 'success', message: `Room ${room.room_number} assigned` } };
};
