/**
 * `rooms ...`: a client's rooms, listed in room-number order, and set up before any PMS links
 * them (the Rooms page's "Add room" use case, audited as the operator CLI).
 */
import { type Command, defineCommand } from '../cli';
import { fields, numeric } from '../format';

const clients = () => import('../../domain/clients');
const propertySync = () => import('../../domain/property-sync/availability');
const actions = () => Promise.all([import('../../domain/operator-actions/actor'), import('../../domain/operator-actions/rooms')]);

export const roomCommands: readonly Command[] = [
  defineCommand({
    name: 'rooms list',
    summary: "List a client's rooms in room-number order, with their external ids and category",
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      return { rooms: await (await propertySync()).listRoomViews(flags.client) };
    },
    render: ({ rooms }) =>
      rooms.length
        ? rooms
            .map(
              (room) =>
                `${room.room_number.padEnd(8)} ${room.room_type.padEnd(14)} ${String(room.price).padStart(8)}  max ${room.max_occupancy}  ` +
                `${room.external_source ? `${room.external_source}/${room.external_room_id}` : '(not linked)'}` +
                `${room.category ? `  ${room.category.name}` : ''}  ${room.id}`,
            )
            .join('\n')
        : 'No rooms for this client.',
  }),

  defineCommand({
    name: 'rooms create',
    summary: 'Set up a room in the service before any PMS links it (a later sync with its room number links it)',
    flags: {
      client: { value: 'ID', help: 'The client', required: true },
      'room-number': { value: 'N', help: 'Room number, unique within the client', required: true },
      'room-type': { value: 'T', help: 'Room type, e.g. double', required: true },
      price: { value: 'P', help: "Price per night in the client's currency, not negative", required: true },
      'max-occupancy': { value: 'M', help: 'Most guests, a whole number from 1', required: true },
    },
    async run({ flags }) {
      await (await clients()).requireClient(flags.client);
      const [{ cliActor }, { addRoom }] = await actions();
      const room = await addRoom(cliActor(flags.client), {
        room_number: flags['room-number'],
        room_type: flags['room-type'],
        price: numeric(flags.price),
        max_occupancy: numeric(flags['max-occupancy']),
      });
      return { room_id: room.id };
    },
    render: (result) => fields([['room_id', result.room_id]]),
  }),
];
