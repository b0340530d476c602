/** A location inside a JSON document: property names and array indices, outermost first. */
export type PathSegment = string | number;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['a', 0, 'b-c']` → `$.a[0]["b-c"]`, the form people read in validation reports. */
export function jsonPath(segments: readonly PathSegment[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (identifier.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** `['a', 0, 'b/c']` → `/a/0/b~1c`: a JSON Pointer (RFC 6901), the form machines read; `[]` is the whole document, `""`. */
export function jsonPointer(segments: readonly PathSegment[]): string {
  let pointer = '';
  for (const segment of segments) pointer = pointerChild(pointer, String(segment));
  return pointer;
}

/**
 * The field at fault in the form its readers were promised, from its segments: `dottedField` for
 * the registry's `validation_failed` details (`domains.1`, as REST clients read it) and
 * `jsonPathLite` for an agent error's `field` (core/error.json: `packages[0].budget`). Two
 * contracts (docs/decisions.md), two spellings, written here only.
 */
export function dottedField(segments: readonly PathSegment[]): string {
  return segments.join('.');
}

/** `['packages', 0, 'budget']` (or `'0'`) → `packages[0].budget`; core/error.json's translation of a JSON Pointer. */
export function jsonPathLite(segments: readonly PathSegment[]): string {
  let field = '';
  for (const segment of segments) {
    if (typeof segment === 'number' || /^\d+$/.test(segment)) field += `[${segment}]`;
    else field = field ? `${field}.${segment}` : segment;
  }
  return field;
}

/** Decodes a JSON Pointer (RFC 6901) into its reference tokens, outermost first; `""`, the whole document, has none. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new TypeError(`not a JSON Pointer: ${JSON.stringify(pointer.slice(0, 80))}`);
  return pointer.slice(1).split('/').map(unescapeToken);
}

/**
 * Splits a JSON Pointer (RFC 6901, as Ajv's `instancePath`) into segments. Digits alone are
 * ambiguous (array index or object key), so the document decides: a segment is an index only
 * where the value it steps into is an array.
 */
export function pointerSegments(pointer: string, document: unknown): PathSegment[] {
  const segments: PathSegment[] = [];
  let node: unknown = document;
  for (const token of pointerTokens(pointer)) {
    const index = Array.isArray(node) ? arrayIndex(token) : undefined;
    segments.push(index ?? token);
    node = child(node, token);
  }
  return segments;
}

/**
 * The value a JSON Pointer (RFC 6901) names in `document`, or undefined where it names nothing
 * (or is not a pointer). Only own properties are followed, so `/__proto__` names nothing.
 */
export function pointerValue(document: unknown, pointer: string): unknown {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let node = document;
  for (const token of pointerTokens(pointer)) {
    node = child(node, token);
    if (node === undefined) return undefined;
  }
  return node;
}

/** Appends one property name to a JSON Pointer. */
export function pointerChild(pointer: string, key: string): string {
  return `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** An array index as RFC 6901 writes one: digits without a leading zero. */
function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

function child(node: unknown, token: string): unknown {
  if (Array.isArray(node)) {
    const index = arrayIndex(token);
    return index === undefined ? undefined : node[index];
  }
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
  return (node as Record<string, unknown>)[token];
}
