/**
 * Values a JSON document can carry that no part of the system can hold, refused at the edge
 * naming the field. A number past 1e308 (`1e999`) parses as Infinity, which JSON cannot write
 * back, RFC 8785 canonical JSON (the idempotency hash) refuses, and jsonb stores as null.
 * PostgreSQL refuses U+0000 in `text` and `jsonb` on both engines, so it would surface as a 500
 * halfway through a write. A lone UTF-16 surrogate (`"\ud800"`, which JSON's escapes can carry)
 * is not Unicode text: UTF-8 cannot encode it, so a hash of canonical JSON throws on it and a
 * driver silently turns it into U+FFFD, storing something the caller did not send.
 */
export interface JsonFault {
  /** Keys and array indexes from the root to the string or key at fault; empty for the root itself. */
  path: Array<string | number>;
  problem: string;
}

const NUL = 'must not contain the NUL character (U+0000)';
const SURROGATE = 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)';
const NON_FINITE = 'must be a finite number';

function fault(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL;
  return text.isWellFormed() ? undefined : SURROGATE;
}

/** The first string or key of a JSON value that holds U+0000 or a lone surrogate, or number that is not finite, or undefined. Iterative: values may nest deeply. */
export function jsonFault(value: unknown): JsonFault | undefined {
  const stack: Array<[unknown, Array<string | number>]> = [[value, []]];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      const problem = fault(item);
      if (problem) return { path, problem };
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return { path, problem: NON_FINITE };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], [...path, i]]);
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const problem = fault(key);
        if (problem) return { path: [...path, key], problem };
        stack.push([child, [...path, key]]);
      }
    }
  }
  return undefined;
}
