/**
 * A hotel's own time (shared/domain/hotel-time.ts): its today where UTC's date is already or
 * still another, days when clocks change (23 and 25 hours, clocks that skip or repeat
 * midnight), which zone names a hotel may set, and the UTC default of a client without one.
 */
import { describe, expect, it } from 'vitest';
import { clientSettingsOf, settingsProblems, timeZoneOf } from '../../shared/domain/client-settings';
import { hotelClock, isTimeZone, localDate, localDateTime, localDayBounds, localTime, startOfLocalDate } from '../../shared/domain/hotel-time';
import { addDays } from '../../shared/schemas/common';
import type { ClientRecord } from '../../shared/store/api-key-store';

const at = (iso: string) => new Date(iso);
const hoursOf = ({ start, end }: { start: Date; end: Date }) => (end.getTime() - start.getTime()) / 3_600_000;

describe("a hotel's today", () => {
  it('is the local date in New York at 20:00, when UTC is already the next day', () => {
    // 2026-11-25 20:00 in New York (EST, UTC-5) is 2026-11-26 01:00 UTC.
    const now = at('2026-11-26T01:00:00Z');
    const clock = hotelClock('America/New_York', now);
    expect(clock.today).toBe('2026-11-25');
    expect(localTime('America/New_York', now)).toBe('20:00');
    expect(localDateTime('America/New_York', now)).toBe('2026-11-25 20:00');
    // Tonight is still bookable there; yesterday is past.
    expect(clock.isPast('2026-11-25')).toBe(false);
    expect(clock.isPast('2026-11-24')).toBe(true);
    // The same instant in a UTC hotel: already the 26th, so the 25th is past.
    expect(hotelClock('UTC', now).today).toBe('2026-11-26');
    expect(hotelClock('UTC', now).isPast('2026-11-25')).toBe(true);
  });

  it('is the local date in New York in summer too (EDT, UTC-4): 20:00 local is midnight UTC', () => {
    const now = at('2026-07-05T00:00:00Z');
    expect(hotelClock('America/New_York', now).today).toBe('2026-07-04');
    expect(localTime('America/New_York', now)).toBe('20:00');
    // One minute earlier, 19:59 local: still the 4th in both.
    expect(localDate('UTC', at('2026-07-04T23:59:00Z'))).toBe('2026-07-04');
  });

  it('is the local date in Tokyo at 01:00, when UTC is still the day before', () => {
    // 2026-11-26 01:00 in Tokyo (UTC+9) is 2026-11-25 16:00 UTC.
    const now = at('2026-11-25T16:00:00Z');
    const clock = hotelClock('Asia/Tokyo', now);
    expect(clock.today).toBe('2026-11-26');
    expect(localDateTime('Asia/Tokyo', now)).toBe('2026-11-26 01:00');
    // UTC's today is Tokyo's yesterday: past for the Tokyo hotel.
    expect(clock.isPast('2026-11-25')).toBe(true);
    expect(clock.isPast('2026-11-26')).toBe(false);
    // A minute before its midnight, Tokyo's today was still the 25th.
    expect(hotelClock('Asia/Tokyo', at('2026-11-25T14:59:00Z')).today).toBe('2026-11-25');
  });

  it('takes an ISO string where the dashboard has one', () => {
    expect(localDateTime('Europe/London', '2026-07-01T12:34:56.789Z')).toBe('2026-07-01 13:34');
    expect(localDateTime('UTC', '2026-01-01T00:00:00Z')).toBe('2026-01-01 00:00');
  });
});

describe('days when clocks change', () => {
  it('New York: 2026-03-08 has 23 hours, 2026-11-01 has 25, the days around them 24', () => {
    const spring = localDayBounds('America/New_York', '2026-03-08');
    expect(spring.start.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(spring.end.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(hoursOf(spring)).toBe(23);
    // The hour from 02:00 does not exist: 06:59 UTC is 01:59 EST, 07:00 UTC is 03:00 EDT.
    expect(localTime('America/New_York', at('2026-03-08T06:59:00Z'))).toBe('01:59');
    expect(localTime('America/New_York', at('2026-03-08T07:00:00Z'))).toBe('03:00');

    const autumn = localDayBounds('America/New_York', '2026-11-01');
    expect(autumn.start.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(autumn.end.toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(hoursOf(autumn)).toBe(25);
    // 01:30 happens twice.
    expect(localTime('America/New_York', at('2026-11-01T05:30:00Z'))).toBe('01:30');
    expect(localTime('America/New_York', at('2026-11-01T06:30:00Z'))).toBe('01:30');

    for (const date of ['2026-03-07', '2026-03-09', '2026-10-31', '2026-11-02']) expect(hoursOf(localDayBounds('America/New_York', date)), date).toBe(24);
    expect(startOfLocalDate('America/New_York', '2026-03-09').toISOString()).toBe(spring.end.toISOString());
  });

  it('Havana, whose clocks skip midnight in spring: 2026-03-08 begins at 01:00 and has 23 hours', () => {
    const day = localDayBounds('America/Havana', '2026-03-08');
    expect(day.start.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(localTime('America/Havana', day.start)).toBe('01:00');
    expect(hoursOf(day)).toBe(23);
    // The moment before still belongs to the 7th.
    expect(localDateTime('America/Havana', new Date(day.start.getTime() - 60_000))).toBe('2026-03-07 23:59');
    // In autumn it repeats the hour after midnight: 25 hours, begun at the first midnight.
    const autumn = localDayBounds('America/Havana', '2026-11-01');
    expect(autumn.start.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(hoursOf(autumn)).toBe(25);
  });

  it('Santiago and Beirut skip midnight on their spring days; Santiago repeats the hour before it in autumn', () => {
    const santiago = localDayBounds('America/Santiago', '2026-09-06');
    expect(localDateTime('America/Santiago', santiago.start)).toBe('2026-09-06 01:00');
    expect(hoursOf(santiago)).toBe(23);
    expect(hoursOf(localDayBounds('America/Santiago', '2026-04-04'))).toBe(25);
    expect(localTime('America/Santiago', startOfLocalDate('America/Santiago', '2026-04-05'))).toBe('00:00');

    const beirut = localDayBounds('Asia/Beirut', '2026-03-29');
    expect(beirut.start.toISOString()).toBe('2026-03-28T22:00:00.000Z');
    expect(localDateTime('Asia/Beirut', beirut.start)).toBe('2026-03-29 01:00');
    expect(hoursOf(beirut)).toBe(23);
  });

  it('Amman in 2021 went back from 01:00 to midnight: the day began at the first of its two midnights', () => {
    const day = localDayBounds('Asia/Amman', '2021-10-29');
    expect(day.start.toISOString()).toBe('2021-10-28T21:00:00.000Z');
    expect(hoursOf(day)).toBe(25);
    expect(hoursOf(localDayBounds('Asia/Amman', '2021-10-28'))).toBe(24);
  });

  it('a date a zone skipped altogether (Apia, 2011-12-30) is empty: it ends where it begins', () => {
    const skipped = localDayBounds('Pacific/Apia', '2011-12-30');
    expect(hoursOf(skipped)).toBe(0);
    expect(localDate('Pacific/Apia', skipped.start)).toBe('2011-12-31');
    expect(hoursOf(localDayBounds('Pacific/Apia', '2011-12-29'))).toBe(24);
  });

  it('every day of 2026 in zones with and without changes begins at its first moment and ends where the next begins', () => {
    const zones = ['UTC', 'America/New_York', 'America/Santiago', 'America/Havana', 'Asia/Beirut', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
    for (const zone of zones) {
      let date = '2026-01-01';
      let hours = 0;
      while (date < '2027-01-01') {
        const { start, end } = localDayBounds(zone, date);
        expect(localDate(zone, start), `${zone} ${date}`).toBe(date);
        expect(localDate(zone, new Date(start.getTime() - 60_000)), `${zone} ${date}`).toBe(addDays(date, -1));
        expect(localDate(zone, new Date(end.getTime() - 60_000)), `${zone} ${date}`).toBe(date);
        hours += hoursOf({ start, end });
        date = addDays(date, 1);
      }
      // Whatever the changes, a year of days is a year of hours.
      expect(hours, zone).toBe(365 * 24);
    }
  });
});

describe('time zone names', () => {
  it('accepts UTC and IANA area/location names', () => {
    for (const name of ['UTC', 'Europe/London', 'America/New_York', 'Asia/Tokyo', 'America/Argentina/Buenos_Aires', 'America/Port-au-Prince', 'Etc/GMT+5', 'Pacific/Kiritimati']) {
      expect(isTimeZone(name), name).toBe(true);
    }
    // Every zone Intl lists can be a hotel's.
    expect(Intl.supportedValuesOf('timeZone').filter((name) => !isTimeZone(name))).toEqual([]);
  });

  it('refuses offsets, abbreviations, other spellings, blanks and names Intl does not know', () => {
    for (const name of ['', ' ', 'UTC ', 'EST5EDT ', 'EST5EDT', 'EST', 'CET', 'GMT', '+02:00', 'UTC+2', 'europe/london', 'Europe/London ', 'Mars/Olympus', 'Europe/', '../etc/passwd', 'Europe/London\n']) {
      expect(isTimeZone(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('settings refuse a time zone that is not one, saying what is expected', () => {
    expect(settingsProblems({ time_zone: 'Asia/Tokyo' })).toEqual([]);
    expect(settingsProblems({ time_zone: '+09:00' })).toEqual([{ path: 'time_zone', message: 'must be a time zone name such as Europe/London or America/New_York' }]);
    expect(settingsProblems({ time_zone: '' })).toHaveLength(1);
  });

  it('a client without a time zone lives in UTC', () => {
    const client = { client_id: 'c', name: 'Old hotel', currency: 'USD', plan: 'standard', created_at: '2026-01-01T00:00:00.000Z' } as ClientRecord;
    expect(timeZoneOf(client)).toBe('UTC');
    expect(clientSettingsOf(client).time_zone).toBe('UTC');
    expect(timeZoneOf({ time_zone: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(clientSettingsOf({ ...client, time_zone: 'America/New_York' }).time_zone).toBe('America/New_York');
  });
});
