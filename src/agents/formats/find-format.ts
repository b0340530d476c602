import { isLoopbackHost } from '../../net/address-policy.ts';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import type { Format, FormatId } from './format.ts';

/**
 * The form in which two spellings of one agent's URL compare equal: its canonical URL
 * (`canonicalAgentUrl`: scheme and host case, default port, percent-encoding) without trailing
 * slashes and without the transport's `/mcp` or `/a2a` segment, because buyers name a creative
 * agent by its base URL as often as by its MCP or A2A endpoint. A loopback host is one host in
 * any spelling (`localhost`, `127.0.0.1`, `[::1]`): a server listening on loopback answers to all
 * of them, so a buyer reading `localhost` in the README names the agent that introduced itself as
 * `127.0.0.1` (the port and path still tell agents apart). A string that is not an absolute URL
 * is its own key.
 */
export function agentKey(url: string): string {
  let key = keys.get(url);
  if (key === undefined) {
    // A few URLs recur on every call (the agent's own, its buyers' spellings of it): each is read once.
    if (keys.size >= 256) keys.clear();
    keys.set(url, (key = keyOf(url)));
  }
  return key;
}

const keys = new Map<string, string>();

function keyOf(url: string): string {
  const canonical = canonicalAgentUrl(url);
  if (canonical === undefined) return url;
  const parsed = new URL(canonical);
  const path = parsed.pathname
    .replace(/\/+$/, '')
    .replace(/\/(?:mcp|a2a)$/, '')
    .replace(/\/+$/, '');
  return `${parsed.protocol}//${hostKey(parsed)}${path}${parsed.search}`;
}

/** A URL's host and port, every loopback spelling of the host one. */
const hostKey = (url: URL) =>
  isLoopbackHost(url.hostname) ? `localhost${url.port === '' ? '' : `:${url.port}`}` : url.host;

/**
 * The rest of `url`'s path under `prefix` (an absolute URL of this server's, such as where its
 * generated assets are served), the host in any loopback spelling as `agentKey` reads it;
 * undefined for a URL elsewhere, or with a query or fragment.
 */
export function pathUnder(prefix: string, url: string): string | undefined {
  if (url.startsWith(`${prefix}/`) && !/[?#]/.test(url)) return url.slice(prefix.length + 1);
  if (!URL.canParse(url) || !URL.canParse(prefix)) return undefined;
  const [base, target] = [new URL(prefix), new URL(url)];
  const path = base.pathname.replace(/\/+$/, '');
  if (
    target.search !== '' ||
    target.hash !== '' ||
    target.protocol !== base.protocol ||
    hostKey(target) !== hostKey(base)
  )
    return undefined;
  return target.pathname.startsWith(`${path}/`) ? target.pathname.slice(path.length + 1) : undefined;
}

/** Whether two URLs name the same agent, in any of the spellings `agentKey` makes one. */
export const sameAgentUrl = (a: string, b: string): boolean => agentKey(a) === agentKey(b);

/** Whether two format ids name the same format: the same id, defined by the same agent in any spelling of its URL. */
export function sameFormatId(a: Pick<FormatId, 'agent_url' | 'id'>, b: Pick<FormatId, 'agent_url' | 'id'>): boolean {
  return a.id === b.id && agentKey(a.agent_url) === agentKey(b.agent_url);
}

/**
 * The format of `formats` that a request's `formatId` names, when the request names it as one of
 * the agent at `ownAgentUrl` (in any spelling of that URL); undefined for another agent's format
 * or an id the agent does not define.
 */
export function findFormat(
  formats: readonly Format[],
  formatId: Pick<FormatId, 'agent_url' | 'id'>,
  ownAgentUrl: string,
): Format | undefined {
  const own = agentKey(ownAgentUrl);
  if (agentKey(formatId.agent_url) !== own) return undefined;
  return formats.find((f) => f.format_id.id === formatId.id && agentKey(f.format_id.agent_url) === own);
}
