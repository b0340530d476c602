/**
 * The RFC 9421 §2.5 signature base, built by one function for both signer and verifier: a base
 * that differs by one byte fails verification with no hint why, so there is exactly one place that
 * decides how a component's value is read and written.
 */
import type { CanonicalTarget } from './target-uri.ts';

/** Request headers as Node (`IncomingHttpHeaders`), plain objects or a fetch `Headers` give them. */
export type HeaderInput = Headers | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** What a signature base is computed from. */
export interface BaseMessage {
  method: string;
  target: CanonicalTarget;
  headers: HeaderInput;
}

/** A covered component has no value in the message, or its value cannot go into a base. */
export class SignatureBaseError extends Error {
  override name = 'SignatureBaseError';
}

/**
 * The value of a header field for a base (RFC 9421 §2.1): every field line with that name, case
 * insensitively, trimmed and joined with `", "`; `undefined` when there is none.
 */
export function headerValue(headers: HeaderInput, name: string): string | undefined {
  const lower = name.toLowerCase();
  let lines: string[] = [];
  if (isFetchHeaders(headers)) {
    const value = headers.get(lower);
    if (value !== null) lines = [value];
  } else {
    for (const [key, value] of Object.entries(headers)) {
      if (key.toLowerCase() !== lower || value === undefined) continue;
      if (Array.isArray(value)) lines.push(...(value as readonly string[]));
      else lines.push(String(value));
    }
  }
  if (lines.length === 0) return undefined;
  return lines.map((line) => line.replace(/^[ \t]+|[ \t]+$/g, '')).join(', ');
}

/** The value of one covered component, or throws `SignatureBaseError`. */
export function componentValue(message: BaseMessage, component: string): string {
  const { target } = message;
  let value: string | undefined;
  switch (component) {
    case '@method':
      value = message.method;
      break;
    case '@target-uri':
      value = target.targetUri;
      break;
    case '@authority':
      value = target.authority;
      break;
    case '@scheme':
      value = target.scheme;
      break;
    case '@path':
      value = target.path;
      break;
    case '@query':
      value = `?${target.query ?? ''}`;
      break;
    default:
      if (component.startsWith('@'))
        throw new SignatureBaseError(`"${component}" is not a supported derived component`);
      value = headerValue(message.headers, component);
  }
  if (value === undefined) throw new SignatureBaseError(`the covered field "${component}" is not in the message`);
  // The base is ASCII text with one component per line; anything else would be ambiguous.
  if (/[^\x20-\x7e]/.test(value))
    throw new SignatureBaseError(`"${component}" has a value that cannot go into a signature base`);
  return value;
}

/**
 * The signature base: one `"<component>": <value>` line per covered component, in order, then
 * `"@signature-params": <signatureParams>`, joined by LF with no trailing newline.
 */
export function buildSignatureBase(
  message: BaseMessage,
  components: readonly string[],
  signatureParams: string,
): string {
  const lines = components.map((component) => `"${component}": ${componentValue(message, component)}`);
  lines.push(`"@signature-params": ${signatureParams}`);
  return lines.join('\n');
}

function isFetchHeaders(headers: HeaderInput): headers is Headers {
  return typeof Headers !== 'undefined' && headers instanceof Headers;
}
