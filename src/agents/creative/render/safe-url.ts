const dataImage = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** Longer than any URL a format accepts (clickthroughs allow 2048): not worth a browser's parse. */
const maxUrlLength = 8192;

/**
 * The URL if a preview may put it in src or href: http(s) only, and with `image`, a base64
 * data:image of a raster type. Checked with the WHATWG parser browsers use, so `java\tscript:`
 * and other spellings are judged as the browser would read them. Answers the URL as written (less
 * the tabs and newlines the parser ignores) so unknown `{MACROS}` keep their braces.
 */
export function safeUrl(raw: string | undefined, { image = false }: { image?: boolean } = {}): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const url = raw.replace(/[\t\n\r]/g, '').trim();
  if (url.length === 0) return undefined;
  if (image && url.startsWith('data:')) return dataImage.test(url) ? url : undefined;
  if (url.length > maxUrlLength || !URL.canParse(url)) return undefined;
  const { protocol } = new URL(url);
  return protocol === 'https:' || protocol === 'http:' ? url : undefined;
}
