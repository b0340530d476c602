/**
 * Result types both engines agree on. PGlite's defaults are the reference; node-postgres is set
 * to match: int8 as a JavaScript number (our bigint columns hold counts and sequence numbers far
 * below 2^53) and `date` as its 'YYYY-MM-DD' text, never a Date shifted by the local time zone.
 */
export const OID = { int8: 20, date: 1082 } as const;

export function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} exceeds the safe integer range`);
  return n;
}

export function parseDate(text: string): string {
  return text;
}
