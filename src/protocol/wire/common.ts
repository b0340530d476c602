import { Type } from 'typebox';

/** A domain as a caller sends it; the handler normalizes it (and rejects what is not a domain). */
export const Domain = Type.String({ minLength: 1, maxLength: 300, description: 'A domain, e.g. example.com; a protocol prefix is stripped.' });

/** Keyset pagination: an opaque cursor from a previous page. */
export const Cursor = Type.String({ maxLength: 512, description: 'Opaque cursor from the previous page.' });
