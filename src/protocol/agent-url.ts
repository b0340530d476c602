import { RecentAnswers } from './recent-answers.ts';

const unreserved = /^[A-Za-z0-9\-._~]$/;

/**
 * The form in which two agent URLs compare equal when they name the same agent: URLs differing
 * only in case of scheme or host, an explicit default port, or percent-encoding of unreserved
 * characters are one agent. Undefined when `url` is not an absolute URL.
 */
export function canonicalAgentUrl(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  // The WHATWG parser already lowercases scheme and host, drops default ports and turns an empty
  // path into "/"; what remains is percent-encoding.
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${normalizeEscapes(parsed.pathname)}${normalizeEscapes(parsed.search)}`;
}

const recentAgents = new RecentAnswers<string>(1024);

/** `canonicalAgentUrl` for URLs taken from requests: the real-time check names the same few agents again and again. */
export function canonicalRequestAgentUrl(url: string): string | undefined {
  const known = recentAgents.get(url);
  if (known !== undefined) return known;
  const canonical = canonicalAgentUrl(url);
  return canonical === undefined ? undefined : recentAgents.set(url, canonical);
}

function normalizeEscapes(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return unreserved.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}
