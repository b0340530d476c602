/**
 * The `Signature-Input` and `Signature` fields (RFC 9421 §4) as structured-field dictionaries.
 *
 * Parsing and serializing go through `structured-headers` so both sides agree on RFC 8941 syntax;
 * this module adds what the profile says on top. The one conflict: the profile encodes binary
 * values in base64url without padding, where RFC 8941 byte sequences are standard base64. So
 * `Signature` byte sequences are checked to be pure base64url (a token mixing `+`/`/` with
 * `-`/`_`, or padded, is malformed: two alphabets for one value is how decoders disagree),
 * translated, and only then handed to the parser.
 */
import {
  parseDictionary,
  serializeInnerList,
  serializeKey,
  type InnerList,
  type Item,
  type Parameters,
} from 'structured-headers';

/** A `Signature-Input` or `Signature` field that breaks RFC 8941 or the profile's shape. */
export class SignatureFieldError extends Error {
  override name = 'SignatureFieldError';
}

/** One label of `Signature-Input`: what it covers and its parameters, in field order. */
export interface SignatureInputMember {
  /** Covered component identifiers, in order (e.g. `@method`, `content-type`). */
  components: string[];
  /** Every parameter as parsed, in order: `created`, `expires`, … and any extension ones. */
  parameters: Parameters;
}

/** Derived components (RFC 9421 §2.2) this profile can compute from a webhook request. */
const DERIVED_COMPONENTS = new Set(['@method', '@target-uri', '@authority', '@scheme', '@path', '@query']);

/** A lowercase field name (RFC 9110 token), as component identifiers must be (RFC 9421 §2.1). */
const FIELD_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

const INTEGER_PARAMETERS = ['created', 'expires'];
const STRING_PARAMETERS = ['nonce', 'keyid', 'alg', 'tag'];

/**
 * The member `label` of a `Signature-Input` field, or `undefined` when the field has no such
 * label. Throws `SignatureFieldError` when the field does not parse or the member is not an inner
 * list of plain, distinct, computable component identifiers with well-typed parameters.
 */
export function parseSignatureInput(field: string, label: string): SignatureInputMember | undefined {
  const member = parseField(field).get(label);
  if (member === undefined) return undefined;
  if (!isInnerList(member)) throw new SignatureFieldError(`"${label}" in Signature-Input is not an inner list`);
  const [items, parameters] = member;

  const components: string[] = [];
  for (const [value, itemParameters] of items) {
    if (typeof value !== 'string') throw new SignatureFieldError('a covered component identifier is not a string');
    if (itemParameters.size > 0) throw new SignatureFieldError(`component parameters on "${value}" are not supported`);
    if (value.startsWith('@') ? !DERIVED_COMPONENTS.has(value) : !FIELD_NAME.test(value)) {
      throw new SignatureFieldError(`"${value}" is not a component this profile can compute`);
    }
    if (components.includes(value)) throw new SignatureFieldError(`"${value}" is covered twice`);
    components.push(value);
  }

  for (const name of INTEGER_PARAMETERS) {
    const value = parameters.get(name);
    if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) {
      throw new SignatureFieldError(`the ${name} parameter is not a non-negative integer`);
    }
  }
  for (const name of STRING_PARAMETERS) {
    const value = parameters.get(name);
    if (value !== undefined && typeof value !== 'string')
      throw new SignatureFieldError(`the ${name} parameter is not a string`);
  }
  return { components, parameters };
}

/**
 * The signature bytes of member `label` of a `Signature` field, or `undefined` when the field has
 * no such label. Throws `SignatureFieldError` when the field does not parse, a byte sequence is not
 * unpadded base64url, or the member is not a byte sequence.
 */
export function parseSignature(field: string, label: string): Uint8Array | undefined {
  const member = parseField(base64UrlToRfc8941(field)).get(label);
  if (member === undefined) return undefined;
  if (isInnerList(member) || !(member[0] instanceof ArrayBuffer)) {
    throw new SignatureFieldError(`"${label}" in Signature is not a byte sequence`);
  }
  return new Uint8Array(member[0]);
}

/**
 * The `@signature-params` value (RFC 9421 §2.3): the covered components as an inner list with the
 * parameters, serialized. The verifier rebuilds it from the parsed field rather than copying the
 * received text, so the base is always the canonical serialization both sides compute.
 */
export function serializeSignatureParams(components: readonly string[], parameters: Parameters): string {
  const inner: InnerList = [components.map((name): Item => [name, new Map()]), parameters];
  return serializeInnerList(inner);
}

/** A one-member `Signature-Input` field. */
export function serializeSignatureInput(label: string, components: readonly string[], parameters: Parameters): string {
  return `${serializeKey(label)}=${serializeSignatureParams(components, parameters)}`;
}

/** A one-member `Signature` field, with the bytes in base64url without padding. */
export function serializeSignature(label: string, signature: Uint8Array): string {
  return `${serializeKey(label)}=:${Buffer.from(signature).toString('base64url')}:`;
}

function parseField(field: string) {
  try {
    return parseDictionary(field);
  } catch (err) {
    throw new SignatureFieldError(`not a structured-field dictionary: ${(err as Error).message}`, { cause: err });
  }
}

function isInnerList(member: Item | InnerList): member is InnerList {
  return Array.isArray(member[0]);
}

/**
 * Rewrites every byte sequence of a dictionary from unpadded base64url to RFC 8941's standard,
 * padded base64, refusing any that is not canonical unpadded base64url. Strings are skipped whole
 * (a `:` inside one is not a delimiter); a `:` starts a byte sequence only where a bare item can
 * start (after `=`, `(` or a space), since tokens may contain `:` too.
 */
function base64UrlToRfc8941(field: string): string {
  let out = '';
  let i = 0;
  while (i < field.length) {
    const char = field[i];
    if (char === '"') {
      let end = i + 1;
      while (end < field.length && field[end] !== '"') end += field[end] === '\\' ? 2 : 1;
      out += field.slice(i, end + 1);
      i = end + 1;
    } else if (char === ':' && i > 0 && '=( '.includes(field[i - 1] ?? '')) {
      const end = field.indexOf(':', i + 1);
      if (end === -1) throw new SignatureFieldError('a byte sequence has no closing ":"');
      const encoded = field.slice(i + 1, end);
      if (!/^[A-Za-z0-9_-]*$/.test(encoded)) {
        throw new SignatureFieldError('a byte sequence is not unpadded base64url (mixed alphabets or padding)');
      }
      const bytes = Buffer.from(encoded, 'base64url');
      // Re-encoding catches lengths and trailing bits no encoder produces (one value, one spelling).
      if (bytes.toString('base64url') !== encoded)
        throw new SignatureFieldError('a byte sequence is not canonical base64url');
      out += `:${bytes.toString('base64')}:`;
      i = end + 1;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}
