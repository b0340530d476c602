import { jsonPath, type PathSegment } from '../../protocol/json-path.ts';

// The forms `jsonPath` writes: `.name`, `[3]` (an index) and `["odd key"]` (any other key).
const step = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(0|[1-9][0-9]*)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/** The segments of a path written by `jsonPath` (`$.a[0]["b-c"]`); undefined for anything else. */
export function pathSegments(path: string): PathSegment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: PathSegment[] = [];
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const match = step.exec(path);
    if (!match) return undefined;
    const [, name, index, quoted] = match;
    if (name !== undefined) segments.push(name);
    else if (index !== undefined) segments.push(Number(index));
    else segments.push(JSON.parse(quoted!) as string);
  }
  return segments;
}

/** `['products', 3, 'name']` → `products[3].name`, as people write it in a catalog. */
export function displayPath(segments: readonly PathSegment[]): string {
  const path = jsonPath(segments);
  if (path === '$') return '$';
  return path.startsWith('$.') ? path.slice(2) : path.slice(1);
}
