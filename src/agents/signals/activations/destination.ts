import { AgentError } from '../../../protocol/errors.ts';
import { httpUrl } from '../../../protocol/http-url.ts';

/** core/destination.json: where a signal is activated (the spec calls these deployment targets). */
export type Destination =
  | { readonly type: 'platform'; readonly platform: string; readonly account?: string }
  | { readonly type: 'agent'; readonly agent_url: string; readonly account?: string };

/**
 * Deployment targets as the tasks' input schemas describe them (the tools list's, checked before
 * `destinationsOf`). Each is an activation or a deployment worked out per signal: a bound keeps one
 * call from asking for thousands.
 */
export const destinationsInput = {
  type: 'array',
  maxItems: 50,
  items: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['platform', 'agent'] },
      platform: { type: 'string' },
      agent_url: { type: 'string' },
      account: { type: 'string' },
    },
    required: ['type'],
  },
} as const;

/**
 * The destinations of a request, from the published schema's `destinations` or the spec's
 * `deployments` (get_signals: `deliver_to.deployments`), with agent URLs in one canonical form so
 * the same agent written twice is one target. Undefined when none were named.
 */
export function destinationsOf(named: unknown, field: string): Destination[] | undefined {
  if (named === undefined) return undefined;
  if (!Array.isArray(named) || named.length === 0)
    throw new AgentError('INVALID_REQUEST', `${field} must be a non-empty array of deployment targets.`, { field });
  return named.map((raw, index) => {
    const at = `${field}[${index}]`;
    const target = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const account = target['account'];
    if (account !== undefined && (typeof account !== 'string' || account.length === 0))
      throw new AgentError('INVALID_REQUEST', 'account must be a non-empty string.', { field: `${at}.account` });
    const onAccount = account === undefined ? {} : { account };
    if (target['type'] === 'platform' && typeof target['platform'] === 'string' && target['platform'].length > 0)
      return { type: 'platform', platform: target['platform'], ...onAccount };
    if (target['type'] === 'agent' && typeof target['agent_url'] === 'string')
      return { type: 'agent', agent_url: canonicalUrl(target['agent_url'], `${at}.agent_url`), ...onAccount };
    throw new AgentError(
      'INVALID_REQUEST',
      'A deployment target is {type: "platform", platform, account?} or {type: "agent", agent_url, account?}.',
      { field: at },
    );
  });
}

/** The identity of a target: one activation per signal, owner and target. */
export function targetKey(destination: Destination): string {
  const where = destination.type === 'platform' ? `platform ${destination.platform}` : `agent ${destination.agent_url}`;
  return destination.account === undefined ? where : `${where} account ${destination.account}`;
}

function canonicalUrl(text: string, field: string): string {
  const url = httpUrl(text);
  if (!url) throw new AgentError('INVALID_REQUEST', 'agent_url must be an absolute http(s) URL.', { field });
  return url.href;
}
