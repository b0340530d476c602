/**
 * JSON with tokens JavaScript values cannot express: a number literal such as `1e999` (which
 * JSON.parse reads as Infinity), a key repeated, text that is not JSON at all. Request bodies are
 * built as values holding these, then written out by `writeJson`.
 */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** An object whose keys may repeat, written in order. */
export class DuplicateKeys {
  readonly entries: ReadonlyArray<readonly [string, unknown]>;
  constructor(entries: ReadonlyArray<readonly [string, unknown]>) {
    this.entries = entries;
  }
}

/** The JSON text of a value that may hold raw tokens. Iterative, so a value nested thousands deep is written too. */
export function writeJson(value: unknown): string {
  const out: string[] = [];
  // A stack of work: values to write, or literal text to emit.
  const stack: Array<{ value: unknown } | { text: string }> = [{ value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (v instanceof RawJson) out.push(v.text);
    else if (v instanceof DuplicateKeys) pushEntries(stack, v.entries);
    else if (Array.isArray(v)) {
      const parts: Array<{ value: unknown } | { text: string }> = [{ text: '[' }];
      v.forEach((element, i) => {
        if (i > 0) parts.push({ text: ',' });
        parts.push({ value: element === undefined ? null : element });
      });
      parts.push({ text: ']' });
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
    } else if (v !== null && typeof v === 'object')
      pushEntries(
        stack,
        Object.entries(v).filter(([, child]) => child !== undefined),
      );
    else out.push(JSON.stringify(v) ?? 'null');
  }
  return out.join('');
}

function pushEntries(
  stack: Array<{ value: unknown } | { text: string }>,
  entries: ReadonlyArray<readonly [string, unknown]>,
): void {
  const parts: Array<{ value: unknown } | { text: string }> = [{ text: '{' }];
  entries.forEach(([key, child], i) => {
    parts.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` });
    parts.push({ value: child });
  });
  parts.push({ text: '}' });
  for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
}

/** The value as the JavaScript an SDK client would send: raw tokens read back as JSON.parse reads them. */
export function toPlain(value: unknown): unknown {
  if (value instanceof RawJson || value instanceof DuplicateKeys) {
    try {
      return JSON.parse(writeJson(value));
    } catch {
      return (value as RawJson).text ?? null;
    }
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  return value;
}
