import { isIP } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { canonicalAgentUrl } from '../../../protocol/agent-url.ts';
import { jsonPath } from '../../../protocol/json-path.ts';
import { isRecord } from '../../../protocol/json-values.ts';
import type { Report } from './findings.ts';

/** Each agent URL on its own (form, scheme, credentials, host), then against the others (the same agent twice). */
export function checkAgentUrls(agents: unknown[], report: Report): void {
  const firstByAgent = new Map<string, number>();
  agents.forEach((agent, index) => {
    if (!isRecord(agent) || typeof agent['url'] !== 'string') return;
    const url = agent['url'];
    const at = ['authorized_agents', index, 'url'];
    const canonical = canonicalAgentUrl(url);
    if (canonical === undefined || !/^https?:\/\//.test(canonical)) {
      report('agent_url_invalid', at, `${JSON.stringify(url)} is not an absolute http(s) URL`);
      return;
    }
    checkForm(new URL(url), at, report);

    const first = firstByAgent.get(canonical);
    if (first === undefined) {
      firstByAgent.set(canonical, index);
      return;
    }
    const earlier = agents[first] as Record<string, unknown>;
    const firstPath = jsonPath(['authorized_agents', first]);
    if (earlier['url'] !== url) {
      report(
        'inconsistent_agent_url',
        at,
        `names the same agent as ${firstPath} but is written differently; tools that compare text will treat them as two agents`,
      );
    }
    // The same agent may hold several entries with different scopes; only a repeat is a mistake.
    if (isDeepStrictEqual(scopeOf(earlier), scopeOf(agent))) {
      report('duplicate_agent_url', at, `${url} is already listed with the same authorization at ${firstPath}`);
    }
  });
}

function checkForm(url: URL, at: (string | number)[], report: Report): void {
  // Reported without the secret itself: this message is shown to whoever validates the file.
  if (url.username !== '' || url.password !== '')
    report(
      'agent_url_credentials',
      at,
      `carries credentials (user${url.password ? ' and password' : ''}) for ${url.host}; remove them and authenticate otherwise`,
    );
  if (url.protocol !== 'https:') report('agent_url_not_https', at, `${url.origin} is not an https URL`);
  if (url.hash !== '')
    report('agent_url_fragment', at, `has the fragment ${url.hash}, which is never sent to the agent`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0)
    report('agent_url_not_public_host', at, `names the address ${host}; publish the agent under a domain name`);
  else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.'))
    report('agent_url_not_public_host', at, `${host} is not a public host name`);
}

function scopeOf(agent: Record<string, unknown>): Record<string, unknown> {
  const { url: _url, authorized_for: _description, ...scope } = agent;
  return scope;
}
