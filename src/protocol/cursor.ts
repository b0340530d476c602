import { ApError } from './errors.ts';

/** Opaque keyset cursors: the sort key of the last row seen, base64url-encoded JSON. */
export function encodeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, fields: string[]): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    // A NUL could never be a stored key, and PostgreSQL would refuse it with a 500 mid-query.
    if (
      key &&
      typeof key === 'object' &&
      fields.every((f) => {
        const v = (key as Record<string, unknown>)[f];
        return typeof v === 'string' && !v.includes('\u0000');
      })
    ) {
      return key as Record<string, string>;
    }
  } catch {
    // fall through to the error below
  }
  throw new ApError('invalid_cursor', 'The cursor is malformed; pass the cursor from the previous page unchanged.');
}
