/**
 * How the operator commands show their results to people, and read a number flag: aligned
 * `label: value` lines, lists in words, numbers left for validation to judge.
 */

/** Aligned `label: value` lines. */
export function fields(rows: [string, string][], indent = ''): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return rows.map(([label, value]) => `${indent}${`${label}:`.padEnd(width)} ${value}`).join('\n');
}

export const listed = (items: string[]) => (items.length ? items.join(', ') : '(none)');

/** A number flag as a number when it is written as one; otherwise the text, which validation then refuses by its type. */
export const numeric = (value: string): number | string => (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);
