/**
 * Until when a guest may cancel their own booking (docs/behaviour.md "Booking changes,
 * cancellations and refunds"): the client's `free_cancellation_hours` before check-in, the
 * check-in being the check-in date at the hotel's check-in time (midnight where it has none) in
 * the hotel's time zone. Pure: the page and the cancel both ask it.
 */
import { localDate, localTime, startOfLocalDate } from '../hotel-time';
import type { GuestClient } from './guest-client';

const MINUTE = 60_000;
const wallClock = (timeZone: string, at: Date) => Date.parse(`${localDate(timeZone, at)}T${localTime(timeZone, at)}:00Z`);

/**
 * The instant a stay begins: its check-in date at `checkInTime` ("HH:MM", the hotel's check-in
 * time; midnight where it has none) on the hotel's clock. A time the clocks skip (in the hour of a
 * spring change) comes out as the instant after the gap that far into it.
 */
export function checkInMoment(timeZone: string, date: string, checkInTime?: string): Date {
  const [hours, minutes] = (checkInTime ?? '00:00').split(':').map(Number) as [number, number];
  const wanted = Date.parse(`${date}T00:00:00Z`) + (hours * 60 + minutes) * MINUTE;
  let at = startOfLocalDate(timeZone, date).getTime() + (hours * 60 + minutes) * MINUTE;
  // A clock change between midnight and the check-in time shifts the wall clock: move by it.
  for (let pass = 0; pass < 2; pass++) at += wanted - wallClock(timeZone, new Date(at));
  return new Date(at);
}

/** Until when a guest may cancel a stay beginning on `checkIn` (exclusive). */
export function freeCancellationUntil(client: Pick<GuestClient, 'time_zone' | 'check_in_time' | 'free_cancellation_hours'>, checkIn: string): Date {
  return new Date(checkInMoment(client.time_zone, checkIn, client.check_in_time).getTime() - client.free_cancellation_hours * 60 * MINUTE);
}

/**
 * What the page of a booking offers about cancelling it: `open` until `until`; `closed` once that
 * has passed (the guest contacts the hotel). Nothing for a booking that is not confirmed (not
 * made, cancelled, checked in or out, a no-show).
 */
export type CancelOffer = { kind: 'open'; until: Date } | { kind: 'closed'; ended: Date };

export function cancelOffer(client: GuestClient, booking: { status?: string; check_in: string }, now: Date): CancelOffer | undefined {
  if (booking.status !== 'confirmed') return undefined;
  const until = freeCancellationUntil(client, booking.check_in);
  return now < until ? { kind: 'open', until } : { kind: 'closed', ended: until };
}
