import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, nameBasedId } from '../../shared/ids';
import { addDays, isCalendarDate, nightsBetween } from '../../shared/schemas/common';

describe('ids', () => {
  it('name-based ids are stable version-5 UUIDs that differ by name', () => {
    const id = nameBasedId('client', 'room', 'pms', 'R1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedId('client', 'room', 'pms', 'R1')).toBe(id);
    expect(nameBasedId('client', 'room', 'pms', 'R2')).not.toBe(id);
    // Parts are separated, so ("ab","c") and ("a","bc") differ.
    expect(nameBasedId('ab', 'c')).not.toBe(nameBasedId('a', 'bc'));
  });

  it('content hashes ignore key order but not values', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe('{"a":{"c":[3,{"e":0,"f":1}],"d":2},"b":1}');
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1, b: 2 })).not.toBe(contentHash({ a: 1, b: 3 }));
  });
});

describe('dates', () => {
  it('accepts only real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(isCalendarDate('2026-01-01T00:00:00Z')).toBe(false);
  });

  it('counts nights and adds days across month and year ends', () => {
    expect(nightsBetween('2026-12-30', '2027-01-02')).toBe(3);
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-12-31', 365)).toBe('2027-12-31');
  });
});
