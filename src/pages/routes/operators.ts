import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader } from '../api.ts';
import { agentLink, count, domainLink, sendRefusal, table, text } from '../parts.ts';
import { domainPageRoute } from './domain-page.ts';
import { records, strings } from '../../protocol/json-values.ts';

/** `/operators/:domain`: the agents a domain operates and the publishers that trust each. */
export function operatorRoute(app: FastifyInstance, api: ApiReader): void {
  domainPageRoute(app, '/operators/:domain', async (request, reply, domain) => {
    const answer = await api(request, '/api/registry/operator', { domain });
    if (answer.status !== 200) return sendRefusal(reply, `Operator ${domain}`, answer, { section: '/agents' });
    const agents = records(answer.body['agents']).map(
      (a) =>
        html`<tr>
          <td>!${agentLink(a['agent_url'])}</td>
          <td>${text(a['type'])}</td>
          <td>${strings(a['sources']).join(', ')}</td>
          <td>
            !${records(a['publishers']).map((p) => html`!${domainLink('publishers', p['domain'])} (${count(p['property_count'])}) `)}
          </td>
        </tr>`,
    );
    const body = html`<p>
        The agents <strong>${domain}</strong> operates: enrolled on it or a host under it, or listed in its brand.json,
        each with the publishers whose adagents.json authorizes it.
      </p>
      !${table('Agents', ['Agent', 'Type', 'Known from', 'Publishers (properties)'], agents, 'It operates no agent the registry knows.')}
      <p>!${domainLink('brands', domain) ? html`Its brand: !${domainLink('brands', domain)}` : ''}</p>`;
    return sendHtml(reply, page(`Operator ${domain}`, body, { section: '/agents' }), 200, false);
  });
}
