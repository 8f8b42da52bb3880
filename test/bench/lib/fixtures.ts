/** Property data the benchmarks sync: categories, rooms, bookings and a booking history. */
import { randomUUID } from 'node:crypto';
import type { BookingStatus } from '../../../shared/schemas/booking-statuses';
import type { BookingRecord } from '../../../shared/store/booking-store';

export const SOURCE = 'bench-pms';
/** The fixed week every availability request asks for. */
export const WEEK = { check_in_date: '2027-06-07', check_out_date: '2027-06-14' };

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function categories(count = 4) {
  return Array.from({ length: count }, (_, i) => ({
    external_category_id: `cat-${i + 1}`,
    name: `Category ${i + 1}`,
    base_price: 80 + 20 * i,
    max_occupancy: 2 + (i % 3),
    amenities: ['wifi', 'tv'],
  }));
}

export function rooms(count: number, options: { withCategories?: boolean; prefix?: string } = {}) {
  return Array.from({ length: count }, (_, i) => ({
    external_room_id: `${options.prefix ?? 'room'}-${i + 1}`,
    ...(options.withCategories ? { external_category_id: `cat-${(i % 4) + 1}` } : {}),
    room_number: String(100 * (1 + Math.floor(i / 100)) + (i % 100) + 1),
    room_type: ['single', 'double', 'twin', 'suite'][i % 4]!,
    price: 80 + (i % 4) * 20,
    max_occupancy: 2 + (i % 3),
  }));
}

/** One synced booking per listed room, starting `checkIn`, for `nights` nights. */
export function bookings(roomIds: readonly string[], checkIn: string, nights: number, prefix: string) {
  return roomIds.map((externalRoomId, i) => ({
    external_booking_id: `${prefix}-${i + 1}`,
    external_room_id: externalRoomId,
    guest_name: `Guest ${prefix} ${i + 1}`,
    guest_email: `guest${i + 1}@example.com`,
    guests: 2,
    check_in_date: checkIn,
    check_out_date: addDays(checkIn, nights),
    total_amount: 100 * nights,
    status: 'confirmed' as const,
  }));
}

/**
 * Past statuses, most stays checked out; some cancelled or no-shows (never in the stay index)
 * and some still `confirmed`/`pending`/`checked_in` (active, so in the stay index) that ended
 * before the week.
 */
const PAST_STATUSES: [BookingStatus, number][] = [
  ['checked_out', 70],
  ['cancelled', 12],
  ['no_show', 5],
  ['confirmed', 9],
  ['pending', 2],
  ['checked_in', 2],
];

function pastStatus(n: number): BookingStatus {
  let slot = (n * 7919) % 100;
  for (const [status, share] of PAST_STATUSES) {
    if (slot < share) return status;
    slot -= share;
  }
  return 'checked_out';
}

export interface RoomRef {
  id: string;
  external_room_id: string;
}

/**
 * Past stays of every room, newest first, all ending on or before the week's first day:
 * stays of 1 to 7 nights with gaps of 0 to 2 days, walking back in time. Returns per room the
 * list (index 0 = most recent), so the newest `k` per room can be loaded first.
 */
export function history(roomList: readonly RoomRef[], perRoom: number): BookingRecord[][] {
  const created = new Date('2027-01-01T00:00:00Z').toISOString();
  return roomList.map((room, r) => {
    const stays: BookingRecord[] = [];
    let checkOut = addDays(WEEK.check_in_date, -((r * 3) % 4));
    for (let k = 0; k < perRoom; k++) {
      const n = r * perRoom + k;
      const nights = 1 + ((n * 31) % 7);
      const checkIn = addDays(checkOut, -nights);
      const status = pastStatus(n);
      stays.push({
        id: randomUUID(),
        origin: 'sync',
        room_id: room.id,
        external_source: SOURCE,
        external_booking_id: `hist-${r + 1}-${k + 1}`,
        external_room_id: room.external_room_id,
        guest_name: `Past guest ${n}`,
        guest_email: `past${n}@example.com`,
        guests: 1 + (n % 3),
        check_in_date: checkIn,
        check_out_date: checkOut,
        total_amount: 90 * nights,
        status,
        payment_status: status === 'cancelled' ? 'refunded' : 'paid',
        content_hash: `hist-${n}`,
        created_at: created,
        updated_at: created,
      });
      checkOut = addDays(checkIn, -((n * 13) % 3));
    }
    return stays;
  });
}
