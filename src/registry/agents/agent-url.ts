import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';

export interface EnrollableUrl {
  /** The agent's URL in the form two spellings of one agent share (the catalog's key). */
  url: string;
  /** Its host, which the enrolling organization must have proven control of. */
  host: string;
}

/**
 * An agent URL as the catalog keeps it: http(s), on a domain name (an IP address cannot be proven
 * by DNS or a well-known file), without credentials or fragment, in its canonical spelling.
 * `localhost` only when asked: for this deployment's own agents, and to find them again.
 */
export function enrollableUrl(
  input: string,
  field = 'agent_url',
  where: 'body' | 'querystring' = 'body',
  options: { localhost?: boolean } = {},
): EnrollableUrl {
  const refuse = (reason: string): never => {
    throw new ApError('invalid_request', `Invalid ${field}: ${reason}.`, {
      details: [{ in: where, field, message: reason }],
    });
  };
  if (input.length > 2048) refuse('at most 2048 characters');
  const url = URL.canParse(input) ? new URL(input) : refuse('not an absolute URL');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('an agent is reached over https (or http)');
  if (url.username || url.password) refuse('an agent URL carries no credentials');
  if (url.hash) refuse('an agent URL has no fragment');
  if (/^\[|^\d+(\.\d+){3}$/.test(url.hostname)) refuse('an agent is enrolled on a domain name, not an IP address');
  // This deployment's own agents, when it listens on loopback (the demo): `localhost`, which no one proves.
  if (options.localhost && url.hostname === 'localhost')
    return { url: canonicalAgentUrl(url.href)!, host: 'localhost' };
  const host = normalizeDomain(url.hostname, { field, in: where });
  return { url: canonicalAgentUrl(url.href)!, host };
}

/** The host and the domains above it (down to two labels): a proof of any of them covers the host. */
export function provingDomains(host: string): string[] {
  const labels = host.split('.');
  return labels.slice(0, Math.max(1, labels.length - 1)).map((_, i) => labels.slice(i).join('.'));
}
