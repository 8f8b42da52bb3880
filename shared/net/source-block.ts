/**
 * What one caller counts as when a public action is bounded per source address: an IPv4 address
 * (IPv4-mapped IPv6 too), or an IPv6 /64, the block one subscriber is usually given, so that a
 * bot cannot get a fresh count from each address of its own block.
 */
import { isIP } from 'node:net';

/** The eight hextets of an IPv6 address, `::` expanded (an embedded IPv4 tail as two). */
function hextets(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (s: string) =>
    s === ''
      ? []
      : s.split(':').flatMap((h) => {
          if (!h.includes('.')) return [h.padStart(4, '0')];
          const [a, b, c, d] = h.split('.').map(Number) as [number, number, number, number];
          return [((a << 8) | b).toString(16).padStart(4, '0'), ((c << 8) | d).toString(16).padStart(4, '0')];
        });
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array.from({ length: 8 - left.length - right.length }, () => '0000'), ...right];
}

/** What one source is counted as: an IPv4 address (IPv4-mapped IPv6 too), or an IPv6 /64. */
export function sourceBlock(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  if (mapped) return mapped[1]!;
  if (isIP(trimmed) === 6) return `${hextets(trimmed).slice(0, 4).join(':')}::/64`;
  return trimmed;
}

