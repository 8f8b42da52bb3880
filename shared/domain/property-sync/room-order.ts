/**
 * Room numbers in natural order: `Intl.Collator('en', { numeric: true, sensitivity: 'base' })`.
 * Creating a collator costs several milliseconds of ICU set-up, which every cold start of the
 * functions importing this module paid; room numbers of ASCII letters and digits only (nearly
 * all) are compared here exactly as that collator compares them, and the collator is created
 * only for the first pair that has any other character.
 */
let collator: Intl.Collator | undefined;
const ALPHANUMERIC = /^[0-9A-Za-z]*$/;
const isDigit = (code: number) => code >= 48 && code <= 57;

/** The collator's primary order on [0-9A-Za-z]*: digit runs by value (before any letter), letters case-insensitively. */
function compareAlphanumeric(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const da = isDigit(ca);
    const db = isDigit(cb);
    if (da && db) {
      let ia = i;
      let jb = j;
      while (ia < a.length && isDigit(a.charCodeAt(ia))) ia++;
      while (jb < b.length && isDigit(b.charCodeAt(jb))) jb++;
      const na = a.slice(i, ia).replace(/^0+/, '');
      const nb = b.slice(j, jb).replace(/^0+/, '');
      if (na.length !== nb.length) return na.length < nb.length ? -1 : 1;
      if (na !== nb) return na < nb ? -1 : 1;
      i = ia;
      j = jb;
    } else if (da !== db) {
      return da ? -1 : 1;
    } else {
      const la = ca | 0x20;
      const lb = cb | 0x20;
      if (la !== lb) return la < lb ? -1 : 1;
      i++;
      j++;
    }
  }
  return a.length - i === b.length - j ? 0 : a.length - i < b.length - j ? -1 : 1;
}

export function naturalCompare(a: string, b: string): number {
  if (ALPHANUMERIC.test(a) && ALPHANUMERIC.test(b)) return compareAlphanumeric(a, b);
  collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  return collator.compare(a, b);
}

export function byRoomNumber(a: { room_number: string }, b: { room_number: string }): number {
  return naturalCompare(a.room_number, b.room_number) || (a.room_number < b.room_number ? -1 : 1);
}
