/**
 * `Content-Digest` (RFC 9530) with sha-256. The signature covers the header, not the body; this
 * digest is what ties the signed header to the bytes that actually arrived.
 *
 * The value is an RFC 8941 byte sequence in the standard base64 alphabet with padding. The vectors
 * README says the profile's base64url override covers Content-Digest too, but every vector carries
 * standard base64 here (009's value contains `/`), so that is what is emitted and accepted; the
 * override is applied to `Signature` only. A value in another alphabet does not parse as a
 * structured field and counts as a mismatch.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

/** A message body as sent: the exact bytes, or a string taken as its UTF-8 encoding. */
export type Body = string | Uint8Array;

export function bodyBytes(body: Body): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** The `Content-Digest` value for `body`: `sha-256=:<base64>:`. */
export function contentDigest(body: Body): string {
  return `sha-256=:${createHash('sha256').update(bodyBytes(body)).digest('base64')}:`;
}

/**
 * Whether `field` carries a `sha-256` member equal to the digest of `body`. Other algorithms in the
 * field are ignored; a field without `sha-256`, or one that does not parse, does not match.
 */
export function contentDigestMatches(field: string, body: Body): boolean {
  let member;
  try {
    member = parseDictionary(field).get('sha-256');
  } catch {
    return false;
  }
  if (!member || Array.isArray(member[0]) || !(member[0] instanceof ArrayBuffer)) return false;
  const claimed = new Uint8Array(member[0]);
  const actual = createHash('sha256').update(bodyBytes(body)).digest();
  return claimed.length === actual.length && timingSafeEqual(claimed, actual);
}
