const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML and SVG alike, in element content and in quoted attributes. Characters
 * XML forbids (C0 controls but tab and newlines, lone surrogates, U+FFFE/U+FFFF) are dropped,
 * because one of them makes resvg reject the whole SVG.
 */
export function escapeMarkup(text: string): string {
  return cleanText(text).replace(/[&<>"']/g, (c) => entities[c]!);
}

/** The text without the characters XML cannot carry. */
export function cleanText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '',
  );
}
