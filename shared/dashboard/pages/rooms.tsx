/**
 * Rooms: every room of the client with its category, price, guests, where it comes from and its
 * state; "Add room" (the use case of `ops rooms create`); and a rooms x 14 nights grid of booked
 * nights from the stay index.
 */
import { recordAudit } from '../../domain/audit';
import { requireClient } from '../../domain/clients';
import { roomGrid } from '../../domain/overview';
import { categoryIndex, toRoomView, byRoomNumber } from '../../domain/property-sync/availability';
import { createServiceRoom } from '../../domain/rooms/service-rooms';
import { AppError } from '../../errors';
import { listCategories, listRooms } from '../../store/property-store';
import { Empty, Field, Page, Table } from '../layout';
import type { PageAction, PageRequest } from '../page-function';

const ROOM_FIELDS = ['room_number', 'room_type', 'price', 'max_occupancy'] as const;
type RoomField = (typeof ROOM_FIELDS)[number];

async function roomsPage(request: PageRequest, form?: { values: Record<string, string>; errors: Partial<Record<RoomField | 'form', string>> }) {
  const clientId = request.operator.client_id;
  const today = request.now.toISOString().slice(0, 10);
  const [client, rooms, categories, grid] = await Promise.all([requireClient(clientId), listRooms(clientId), listCategories(clientId), roomGrid(clientId, today)]);
  const byKey = categoryIndex(categories);
  const views = rooms.sort(byRoomNumber).map((room) => ({ view: toRoomView(room, byKey), active: room.is_active }));
  const { links } = request;
  const values = form?.values ?? {};
  const errors = form?.errors ?? {};
  return (
    <Page title="Rooms" links={links} operator={request.operator} nav="rooms" notice={request.notice}>
      {views.length === 0 ? (
        <Empty>No rooms yet: sync them from your PMS or add one below.</Empty>
      ) : (
        <Table head={['Room', 'Type', 'Category', 'Price', 'Guests', 'Source', 'State']}>
          {views.map(({ view, active }) => (
            <tr>
              <td>{view.room_number}</td>
              <td>{view.room_type}</td>
              <td>{view.category?.name ?? '—'}</td>
              <td>
                {view.price.toFixed(2)} {client.currency}
              </td>
              <td>{view.max_occupancy}</td>
              <td>{view.external_source ? `${view.external_source} · ${view.external_room_id}` : 'added in the service (not linked to the PMS yet)'}</td>
              <td>{active ? 'active' : 'inactive'}</td>
            </tr>
          ))}
        </Table>
      )}

      <section aria-labelledby="add-room">
        <h2 id="add-room">Add a room</h2>
        <p class="muted">A room set up here before the PMS knows it; a later sync with the same room number links it.</p>
        {errors.form ? (
          <div class="notice error" role="alert">
            <p>{errors.form}</p>
          </div>
        ) : null}
        <form method="post" action={links.to('/dashboard/rooms')} aria-labelledby="add-room">
          <Field label="Room number" name="room_number" value={values.room_number} error={errors.room_number} required />
          <Field label="Room type" name="room_type" value={values.room_type} error={errors.room_type} required />
          <Field label="Price" name="price" type="number" min="0" step="0.01" value={values.price} error={errors.price} required hint={`Per night, in ${client.currency}`} />
          <Field label="Max occupancy" name="max_occupancy" type="number" min="1" step="1" value={values.max_occupancy} error={errors.max_occupancy} required />
          <button type="submit">Add room</button>
        </form>
      </section>

      <section aria-labelledby="grid">
        <h2 id="grid">Booked nights, next {grid.nights.length}</h2>
        {grid.rooms.length === 0 ? (
          <Empty>No active rooms.</Empty>
        ) : (
          <div class="table-wrap" tabIndex={0}>
            <table class="grid">
              <thead>
                <tr>
                  <th scope="col">Room</th>
                  {grid.nights.map((night) => (
                    <th scope="col">{night.slice(5)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {grid.rooms.map(({ room, booked }) => (
                  <tr>
                    <th scope="row">{room.room_number}</th>
                    {booked.map((taken) => (taken ? <td class="booked">booked</td> : <td class="free">·</td>))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Page>
  );
}

export const roomsList: PageAction = async (request) => ({ html: await roomsPage(request) });

/** A number as typed in a form: the API's rules then apply to it (a text is not coerced). */
function numberOf(value: string): number | string {
  const trimmed = value.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

export const addRoom: PageAction = async (request) => {
  const values = Object.fromEntries(ROOM_FIELDS.map((f) => [f, (request.form.get(f) ?? '').trim()])) as Record<RoomField, string>;
  try {
    const room = await createServiceRoom(request.operator.client_id, {
      room_number: values.room_number,
      room_type: values.room_type,
      price: numberOf(values.price),
      max_occupancy: numberOf(values.max_occupancy),
    });
    await recordAudit(
      request.operator.client_id,
      { operator: request.operator.email, action: 'room.create', target: room.id, changes: { room_number: room.room_number, room_type: room.room_type, price: room.price, max_occupancy: room.max_occupancy } },
      request.now,
    );
    return { redirect: '/dashboard/rooms', notice: { kind: 'success', message: `Room ${room.room_number} was added.` } };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const errors: Partial<Record<RoomField | 'form', string>> = {};
    for (const detail of error.details ?? []) {
      const field = ROOM_FIELDS.find((f) => detail.path === f);
      if (field) errors[field] ??= detail.message;
      else errors.form ??= `${detail.path}: ${detail.message}`;
    }
    if (Object.keys(errors).length === 0) errors.form = error.message;
    return { html: await roomsPage(request, { values, errors }), status: error.status === 422 ? 422 : 400 };
  }
};
