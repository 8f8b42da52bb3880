/**
 * Rooms: every room of the client with its category, price, guests, where it comes from and its
 * state; "Add room" (addRoom: the room, as `ops rooms create` makes it, and its audit entry); and
 * a rooms x 14 nights grid of booked nights from the stay index.
 */
import { timeZoneOf } from '../../domain/client-settings';
import { requireClient } from '../../domain/clients';
import { hotelClock } from '../../domain/hotel-time';
import { roomGrid } from '../../domain/overview';
import { addRoom as addServiceRoom } from '../../domain/operator-actions/rooms';
import { listClientRooms } from '../../domain/rooms/room-list';
import { roomTypes } from '../../domain/operator-actions/category-pictures';
import { type PictureForm, pictureKey, RoomTypePictures, setPictureAction } from './room-type-pictures';
import { AppError } from '../../errors';
import { formatPrice } from '../format';
import { Empty, ErrorSummary, Field, Page, Table } from '../layout';
import type { PageAction, PageRequest } from '../page-function';

const ROOM_FIELDS = ['room_number', 'room_type', 'price', 'max_occupancy'] as const;
type RoomField = (typeof ROOM_FIELDS)[number];

async function roomsPage(request: PageRequest, form?: { values: Record<string, string>; errors: RoomErrors }, picture?: PictureForm) {
  const clientId = request.operator.client_id;
  const client = await requireClient(clientId);
  // The grid starts on the hotel's today, in its time zone.
  const { today } = hotelClock(timeZoneOf(client), request.now);
  const [views, grid, categories] = await Promise.all([listClientRooms(clientId), roomGrid(clientId, today), roomTypes(clientId)]);
  const { links } = request;
  // Tonight's state of each room: taken by a booking, or free (the grid's first night is tonight).
  const takenTonight = new Set(grid.rooms.filter((row) => row.booked[0]).map((row) => row.room.id));
  const values = form?.values ?? {};
  const pictureIndex = picture ? categories.findIndex((c) => c.id === picture.categoryId) : -1;
  const errors = { ...(form?.errors ?? {}), ...(picture ? { [pictureIndex >= 0 ? pictureKey(pictureIndex) : 'form']: picture.error } : {}) };
  return (
    <Page title="Rooms" links={links} operator={request.operator} nav="rooms" notice={request.notice}>
      <ErrorSummary errors={errors} />
      <p>
        <a href={links.to('/dashboard/qr-sheet')}>Print the reception QR code</a> (guests scan it to book a room)
      </p>
      {views.length === 0 ? (
        <Empty>No rooms yet: sync them from your PMS or add one below.</Empty>
      ) : (
        <Table head={['Room', 'Category', 'Price a night', 'Guests', 'Source', 'State']}>
          {views.map(({ view, active }) => (
            <tr>
              <td>{view.room_number}</td>
              <td>
                {view.category?.name ?? view.room_type}
                {view.category && view.category.name !== view.room_type ? <span class="muted"> · {view.room_type}</span> : null}
              </td>
              <td class="amount">{formatPrice(view.price, client.currency)}</td>
              <td>up to {view.max_occupancy}</td>
              <td>
                {view.external_source ? (
                  <>
                    From your PMS <span class="muted">({view.external_source}, its room {view.external_room_id})</span>
                  </>
                ) : (
                  'Added here; not linked to your PMS yet'
                )}
              </td>
              <td>{!active ? 'Not offered for booking' : takenTonight.has(view.id) ? 'Occupied tonight' : 'Free tonight'}</td>
            </tr>
          ))}
        </Table>
      )}

      <RoomTypePictures links={links} categories={categories} form={picture} />

      <section aria-labelledby="add-room">
        <h2 id="add-room">Add a room</h2>
        <p class="muted">A room set up here before the PMS knows it; a later sync with the same room number links it.</p>
        <form method="post" action={links.to('/dashboard/rooms')} novalidate aria-labelledby="add-room">
          <Field label="Room number" name="room_number" value={values.room_number} error={errors.room_number} required />
          <Field label="Room type" name="room_type" value={values.room_type} error={errors.room_type} required hint="Like Double or Deluxe suite" />
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

/** POST /dashboard/rooms/pictures: a room type's picture; a problem shows the Rooms page again, the message beside the field. */
export const setRoomTypePicture: PageAction = setPictureAction((request, picture) => roomsPage(request, undefined, picture));

type RoomErrors = Partial<Record<RoomField | 'form', string>>;

/** The Add room form's problems in plain words, from what was typed (the use case checks the same rules again). */
function roomFormErrors(values: Record<RoomField, string>): RoomErrors {
  const errors: RoomErrors = {};
  if (!values.room_number) errors.room_number = 'Enter the room number';
  else if (values.room_number.length > 128) errors.room_number = 'The room number can be at most 128 characters';
  if (!values.room_type) errors.room_type = 'Enter the room type, like Double';
  else if (values.room_type.length > 2000) errors.room_type = 'The room type can be at most 2000 characters';
  if (!values.price) errors.price = 'Enter the price a night';
  else if (!/^\d{1,10}(\.\d{1,6})?$/.test(values.price)) errors.price = 'Enter the price a night as an amount, like 120 or 120.50';
  else if (Number(values.price) > 1_000_000_000) errors.price = 'The price can be at most 1000000000';
  if (!values.max_occupancy) errors.max_occupancy = 'Enter how many guests the room takes';
  else if (!/^\d{1,5}$/.test(values.max_occupancy)) errors.max_occupancy = 'Enter how many guests the room takes as a whole number, like 2';
  else if (Number(values.max_occupancy) < 1) errors.max_occupancy = 'A room takes at least 1 guest';
  else if (Number(values.max_occupancy) > 10_000) errors.max_occupancy = 'A room takes at most 10000 guests';
  return errors;
}

export const addRoom: PageAction = async (request) => {
  const values = Object.fromEntries(ROOM_FIELDS.map((f) => [f, (request.form.get(f) ?? '').trim()])) as Record<RoomField, string>;
  const typed = roomFormErrors(values);
  if (Object.keys(typed).length) return { html: await roomsPage(request, { values, errors: typed }), status: 400 };
  try {
    const room = await addServiceRoom(
      request.operator,
      { room_number: values.room_number, room_type: values.room_type, price: Number(values.price), max_occupancy: Number(values.max_occupancy) },
      request.now,
    );
    return { redirect: '/dashboard/rooms', notice: { kind: 'success', message: `Room ${room.room_number} was added.` } };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const errors: RoomErrors =
      error.code === 'ROOM_NUMBER_CONFLICT'
        ? { room_number: `Room ${values.room_number} already exists: enter another room number` }
        : { form: `The room could not be added: ${error.message}` };
    return { html: await roomsPage(request, { values, errors }), status: error.status === 422 ? 422 : 400 };
  }
};
