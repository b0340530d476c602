import { createHash } from 'node:crypto';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { ApError } from '../../protocol/errors.ts';
import type { AgentCredentialHeaders } from './schemas.ts';

/** The agent a probe asks, and as whom. */
export interface AgentTarget {
  /** Canonical spelling (protocol/agent-url.ts), fragment dropped: two spellings of one agent share a cache entry. */
  url: string;
  /** Sent to the agent as `Authorization`, never elsewhere. */
  authorization?: string;
  /** Keys the cache: answers given under one credential are not shown to another caller. */
  cacheKey: string;
}

/**
 * The `url` query parameter as an agent to probe: an absolute http(s) URL without credentials
 * (400 otherwise). Whether its host may be reached is the fetch client's to decide, at connect time.
 */
export function agentTarget(input: string, headers: AgentCredentialHeaders): AgentTarget {
  const refuse = (reason: string): never => {
    throw new ApError('invalid_request', `Invalid url: ${reason}.`, {
      details: [{ in: 'querystring', field: 'url', message: reason }],
    });
  };
  const parsed = URL.canParse(input) ? new URL(input) : refuse('not an absolute URL');
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') refuse('an agent is reached over https (or http)');
  if (parsed.username || parsed.password)
    refuse('an agent URL carries no credentials (send one in ap-agent-authorization)');
  parsed.hash = '';
  const url = canonicalAgentUrl(parsed.href)!;
  const authorization = headers['ap-agent-authorization'];
  const as = authorization ? createHash('sha256').update(authorization).digest('base64url') : '';
  return { url, ...(authorization ? { authorization } : {}), cacheKey: `${url}\n${as}` };
}
