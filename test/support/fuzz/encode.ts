/**
 * Percent-encodes a URL component as encodeURIComponent does, except that a lone surrogate (which
 * encodeURIComponent refuses) is written as the three bytes it would take in WTF-8 (`\ud800` as
 * `%ED%A0%80`): invalid UTF-8 on the wire, as a hostile client sends it.
 */
export function encodeComponent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const high = code >= 0xd800 && code <= 0xdbff;
    const low = code >= 0xdc00 && code <= 0xdfff;
    if (high && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (high || low) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(text[i]!);
  }
  return out;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A value as a query-string or path value: strings as they are, everything else as JSON. */
export function asParameter(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
