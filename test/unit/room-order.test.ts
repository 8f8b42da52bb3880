/**
 * Room numbers in natural order (shared/domain/property-sync/availability.ts): the ICU-free
 * comparison of ASCII letters and digits orders exactly as the collator it stands in for.
 */
import { describe, expect, it } from 'vitest';
import { byRoomNumber, naturalCompare } from '../../shared/domain/property-sync/room-order';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const sign = (n: number) => Math.sign(n);

/** A deterministic pseudo-random sequence (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('naturalCompare', () => {
  const tricky = ['', '0', '00', '1', '01', '001', '9', '10', '010', '99', '100', '101', '12A', '12a', '12B', '1a', '01a', 'a', 'A', 'a1', 'a01', 'A1', 'a10', 'aA', 'Aa', 'b', 'z', 'Z9', '12345678901234567890', '0012345678901234567890', '12345678901234567891', `1${'0'.repeat(60)}`, '9'.repeat(60)];

  it('orders letters and digits as Intl.Collator(en, numeric, base) does', () => {
    const mismatches: string[] = [];
    const check = (a: string, b: string) => {
      if (sign(naturalCompare(a, b)) !== sign(collator.compare(a, b))) mismatches.push(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    };
    for (const a of tricky) for (const b of tricky) check(a, b);
    const next = random(12);
    const alphabet = '0123456789abxyzABXYZ';
    const word = () => Array.from({ length: Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let i = 0; i < 20_000; i++) check(word(), word());
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  it('falls back to the collator for any other character', () => {
    for (const [a, b] of [['B-2', 'B-10'], ['Suite 2', 'suite 10'], ['Zimmer 3', 'Zimmer 03'], ['é1', 'e2'], ['a_1', 'a-1']] as const) {
      expect(sign(naturalCompare(a, b)), `${a} vs ${b}`).toBe(sign(collator.compare(a, b)));
    }
  });

  it('sorts rooms naturally, ties broken by code point', () => {
    const rooms = ['10', '9', 'b1', 'A2', '010', '2', 'B-1', 'a10'].map((room_number) => ({ room_number }));
    expect(rooms.sort(byRoomNumber).map((r) => r.room_number)).toEqual(['2', '9', '010', '10', 'A2', 'a10', 'B-1', 'b1']);
  });
});
