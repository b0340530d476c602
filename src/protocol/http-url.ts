/** `text` as an absolute http(s) URL, or undefined when it is not one (where it leads is the SSRF-safe client's to judge). */
export function httpUrl(text: string): URL | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}
