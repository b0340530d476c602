/**
 * The deepest nesting of arrays and objects this project reads from anyone else: far beyond any
 * document the protocol defines, far short of what the recursive code that walks JSON (deep
 * equality, `JSON.stringify`, schema validators) survives without running out of stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays and objects at most `limit` deep. Iterative, so any input is safe to ask about. */
export function withinJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return false;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** JSON.parse for text from someone else: also a SyntaxError when it nests deeper than MAX_JSON_DEPTH. */
export function parseBoundedJson(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (!withinJsonDepth(value)) throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}
