/**
 * The demo hotel a first `npm start` fills in, so that the dashboard, the guest page and the API
 * show a believable hotel at once: three room types with descriptions and amenities, a dozen
 * rooms, bookings over the coming four weeks (arrivals and departures today, guests in house),
 * and a few deliveries. Everything goes through the API the way a PMS and a partner website use
 * it, with the demo keys: the sync routes for the room types, rooms and bookings; payment orders
 * paid on the sandbox checkout and verified for two guests' bookings, which make confirmed service
 * bookings and their booking.confirmed and payment_order.paid deliveries. The callback and webhook
 * URLs are set as `npm run ops -- callbacks set` sets them, to an address of the local stack that
 * answers 404, so those deliveries wait for review as they would for a receiver not yet built.
 */
import { addDays } from '../../shared/schemas/common';

export interface DemoHotelTarget {
  clientId: string;
  apiUrl: string;
  syncKey: string;
  paymentKey: string;
  /** Sets a client's callback or webhook URL (shared/domain/callbacks/deliveries.ts configureEndpoint). */
  configureEndpoint: (clientId: string, kind: 'callback' | 'webhook', input: { url: string }) => Promise<unknown>;
}

export interface DemoHotelSummary {
  roomTypes: number;
  rooms: number;
  bookings: number;
  deliveries: number;
}

const SOURCE = 'demo-pms';

const ROOM_TYPES = [
  {
    external_category_id: 'STD',
    name: 'Standard Double',
    base_price: 95,
    max_occupancy: 2,
    description: 'A quiet double room on the courtyard side, with a queen bed and a walk-in shower.',
    amenities: ['Queen bed', 'Walk-in shower', 'Free Wi-Fi', 'Desk'],
  },
  {
    external_category_id: 'SUP',
    name: 'Superior Twin',
    base_price: 125,
    max_occupancy: 3,
    description: 'A larger room facing the old town, with two single beds that can be joined and a sofa bed.',
    amenities: ['Two single beds', 'Sofa bed', 'Bath and shower', 'Coffee machine', 'Free Wi-Fi'],
  },
  {
    external_category_id: 'STE',
    name: 'Garden Suite',
    base_price: 210,
    max_occupancy: 4,
    description: 'A suite on the ground floor opening onto the garden: bedroom, sitting room and a terrace of its own.',
    amenities: ['King bed', 'Sitting room', 'Private terrace', 'Bathtub', 'Breakfast included'],
  },
] as const;

/** [room number, room type id, price a night] */
const ROOMS: readonly (readonly [string, (typeof ROOM_TYPES)[number]['external_category_id'], number])[] = [
  ['101', 'STD', 95],
  ['102', 'STD', 95],
  ['103', 'STD', 99],
  ['104', 'STD', 99],
  ['105', 'STD', 105],
  ['201', 'SUP', 125],
  ['202', 'SUP', 125],
  ['203', 'SUP', 135],
  ['204', 'SUP', 135],
  ['301', 'STE', 210],
  ['302', 'STE', 230],
  ['303', 'STE', 250],
];

/** [guest, room, check-in in days from today, nights, guests, status] */
const STAYS: readonly (readonly [string, string, number, number, number, 'confirmed' | 'checked_in' | 'checked_out' | 'pending'])[] = [
  ['Ana Silva', '101', -2, 2, 2, 'checked_in'],
  ['Kofi Mensah', '201', -1, 3, 2, 'checked_in'],
  ['Ingrid Larsen', '301', -3, 5, 3, 'checked_in'],
  ['Tomás Ortega', '102', -4, 4, 1, 'checked_out'],
  ['Mei Tanaka', '103', 0, 2, 2, 'confirmed'],
  ['Oluwaseun Adeyemi', '202', 0, 4, 3, 'confirmed'],
  ['Claire Dubois', '104', 1, 3, 2, 'confirmed'],
  ['Rahul Mehta', '203', 2, 2, 2, 'pending'],
  ['Sofia Rossi', '302', 4, 3, 4, 'confirmed'],
  ['Jonas Becker', '105', 6, 1, 1, 'confirmed'],
  ['Amara Okafor', '204', 8, 5, 2, 'confirmed'],
  ['Lucas Martin', '101', 10, 2, 2, 'confirmed'],
  ['Hana Novak', '303', 13, 4, 2, 'confirmed'],
  ['Diego Fernández', '201', 17, 3, 3, 'confirmed'],
  ['Aylin Yılmaz', '102', 21, 2, 2, 'confirmed'],
  ['Noah Williams', '202', 25, 3, 2, 'pending'],
];

/** Guests who book on the partner website and pay there: [name, check-in in days, nights, room]. */
const PAID_STAYS = [
  ['Elena Petrova', 3, 2, '301'],
  ['Samuel Osei', 12, 3, '203'],
] as const;

/** Fills the demo client's hotel; throws (naming the request) if the API refuses any of it. */
export async function seedDemoHotel(target: DemoHotelTarget, today = new Date().toISOString().slice(0, 10)): Promise<DemoHotelSummary> {
  const api = apiClient(target);
  await api.put('/api/v1/property-sync/room-categories', { external_source: SOURCE, categories: ROOM_TYPES });
  await api.put('/api/v1/property-sync/rooms', {
    external_source: SOURCE,
    rooms: ROOMS.map(([number, type, price]) => ({
      external_room_id: `R${number}`,
      external_category_id: type,
      room_number: number,
      room_type: ROOM_TYPES.find((t) => t.external_category_id === type)!.name,
      price,
      max_occupancy: ROOM_TYPES.find((t) => t.external_category_id === type)!.max_occupancy,
    })),
  });
  await api.put('/api/v1/property-sync/bookings', {
    external_source: SOURCE,
    bookings: STAYS.map(([guest, room, inDays, nights, guests, status], i) => ({
      external_booking_id: `PMS-${1001 + i}`,
      external_room_id: `R${room}`,
      guest_name: guest,
      guest_email: `${guest.split(' ')[0]!.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase()}@guest.example`,
      guests,
      check_in_date: addDays(today, inDays),
      check_out_date: addDays(today, inDays + nights),
      total_amount: nights * ROOMS.find(([number]) => number === room)![2],
      status,
      payment_status: status === 'checked_out' ? 'paid' : status === 'pending' ? 'unpaid' : 'partially_paid',
    })),
  });

  // The receivers the hotel has not built yet: the deliveries below wait there for review.
  const nowhere = `${target.apiUrl}/demo-receiver-not-built-yet`;
  await target.configureEndpoint(target.clientId, 'callback', { url: `${nowhere}/pms` });
  await target.configureEndpoint(target.clientId, 'webhook', { url: `${nowhere}/website` });
  for (const [guest, inDays, nights, roomNumber] of PAID_STAYS) {
    const checkIn = addDays(today, inDays);
    const checkOut = addDays(today, inDays + nights);
    const availability = await api.get(`/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=2`);
    const room = (availability.available_rooms as { id: string; room_number: string; price: number }[]).find((r) => r.room_number === roomNumber);
    if (!room) throw new Error(`demo hotel: room ${roomNumber} is not free from ${checkIn} to ${checkOut}`);
    const order = await api.post('/api/v1/payments/payment-orders', {
      reference: `WEB-${checkIn}-${roomNumber}`,
      amount_minor: Math.round(room.price * nights * 100),
      currency: 'USD',
      customer: { name: guest, email: `${guest.split(' ')[0]!.toLowerCase()}@guest.example` },
      context: { type: 'room_booking', check_in_date: checkIn, check_out_date: checkOut, guests: 2, service_room_id: room.id },
      success_url: 'http://127.0.0.1/demo-website/paid',
      cancel_url: 'http://127.0.0.1/demo-website/cancelled',
    });
    await payOnSandbox(order.checkout_url as string);
  }
  return { roomTypes: ROOM_TYPES.length, rooms: ROOMS.length, bookings: STAYS.length + PAID_STAYS.length, deliveries: 2 * PAID_STAYS.length };
}

/** As a guest on the sandbox checkout: "paid", then the provider's redirect to the API's verify. */
async function payOnSandbox(checkoutUrl: string): Promise<void> {
  const submitted = await fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'outcome=paid',
    redirect: 'manual',
  });
  const verify = submitted.headers.get('location');
  if (submitted.status !== 303 || !verify) throw new Error(`demo hotel: the sandbox checkout answered ${submitted.status}`);
  const verified = await fetch(verify, { redirect: 'manual' });
  if (!(verified.headers.get('location') ?? '').includes('payment=success')) throw new Error(`demo hotel: verify answered ${verified.status}, not a paid order`);
}

function apiClient(target: DemoHotelTarget) {
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const key = path.startsWith('/api/v1/payments/') ? target.paymentKey : target.syncKey;
    const response = await fetch(`${target.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`demo hotel: ${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  return {
    get: (path: string) => call('GET', path),
    put: (path: string, body: unknown) => call('PUT', path, body),
    post: (path: string, body: unknown) => call('POST', path, body),
  };
}
