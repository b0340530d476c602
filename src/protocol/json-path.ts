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
 * Splits a JSON Pointer (RFC 6901, as Ajv's `instancePath`) into segments. Digits alone are
 * ambiguous (array index or object key), so the document decides: a segment is an index only
 * where the value it steps into is an array.
 */
export function pointerSegments(pointer: string, document: unknown): PathSegment[] {
  if (pointer === '') return [];
  const segments: PathSegment[] = [];
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token)) {
      const index = Number(token);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(token);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
    }
  }
  return segments;
}

/** Appends one property name to a JSON Pointer. */
export function pointerChild(pointer: string, key: string): string {
  return `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
