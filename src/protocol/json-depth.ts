/**
 * The deepest nesting of arrays and objects this project reads from anyone else: far beyond any
 * document the protocol defines, far short of what the recursive code that walks JSON (deep
 * equality, `JSON.stringify`, schema validators) survives without running out of stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The most members one object of a request body may have: far beyond any object the protocol
 * defines (its maps of macros, assets or extensions hold a few dozen). V8 builds an object of n
 * members through n hidden classes, and once its root class holds all the transitions it may
 * (schema compilers fill it), each copy of such an object (the A2A SDK copies every message
 * twice) costs O(n²): ~1 ms at 256 members, 15–70 ms at 1,000 on a busy heap.
 */
export const MAX_JSON_MEMBERS = 256;

export interface JsonBounds {
  depth: number;
  members: number;
}

/** The bounds a request body is held to. */
export const requestBounds: JsonBounds = { depth: MAX_JSON_DEPTH, members: MAX_JSON_MEMBERS };

/** The first bound `value` breaks, or undefined when it keeps them. Iterative, so any input is safe to ask about. */
export function brokenJsonBound(value: unknown, bounds: JsonBounds): keyof JsonBounds | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > bounds.depth) return 'depth';
    const isArray = Array.isArray(item);
    const children = isArray ? item : Object.values(item);
    if (!isArray && children.length > bounds.members) return 'members';
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Whether `value` nests arrays and objects at most `limit` deep. */
export function withinJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  return brokenJsonBound(value, { depth: limit, members: Infinity }) === undefined;
}

/** JSON.parse for text from someone else: also a SyntaxError when it nests deeper than MAX_JSON_DEPTH. */
export function parseBoundedJson(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (!withinJsonDepth(value)) throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}
