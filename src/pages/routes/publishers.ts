import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader, Json } from '../api.ts';
import {
  agentLink,
  badge,
  count,
  domainLink,
  facts,
  list,
  nextPage,
  object,
  refusal,
  table,
  text,
  when,
} from '../parts.ts';
import { searchForm } from './brands.ts';
import { domainParam, listQuery, type ListQuery } from './page-schemas.ts';

const pageSize = 50;

/** `/publishers` (paged as the API pages them) and `/publishers/:domain`: its properties, its authorized agents, its file. */
export function publisherRoutes(app: FastifyInstance, api: ApiReader): void {
  app.get<{ Querystring: ListQuery }>(
    '/publishers',
    { schema: { hide: true, querystring: listQuery } },
    async (request, reply) => {
      const { q, cursor } = request.query;
      const answer = await api(request, '/api/registry/publishers', { q, cursor, limit: pageSize });
      if (answer.status !== 200)
        return sendHtml(reply, page('Publishers', refusal(answer), { section: '/publishers' }), answer.status, false);
      const rows = list(answer.body['publishers']).map(
        (p) =>
          html`<tr>
            <td>!${domainLink('publishers', p['domain'])}</td>
            <td>!${status(p['status'])}</td>
            <td>${count(p['property_count'])}</td>
            <td>${count(p['agent_count'])}</td>
            <td>!${p['has_valid_adagents'] === true ? badge('valid', 'good') : badge('missing or invalid', 'bad')}</td>
            <td>!${when(p['discovered_at'])}</td>
          </tr>`,
      );
      const body = html`!${searchForm('/publishers', 'Search publishers', q)}
        <p class="muted">${String(answer.body['total'] ?? 0)} publishers${q ? ` matching “${q}”` : ''}.</p>
        !${table('Publishers', ['Domain', 'Status', 'Properties', 'Agents', 'adagents.json', 'Discovered'], rows, 'No publisher matches.')}
        !${nextPage('/publishers', { q }, answer.body)}`;
      return sendHtml(reply, page('Publishers', body, { section: '/publishers', query: q }), 200, false);
    },
  );

  app.get<{ Params: { domain: string } }>(
    '/publishers/:domain',
    { schema: { hide: true, params: domainParam } },
    async (request, reply) => {
      const { domain } = request.params;
      const answer = await api(request, '/api/registry/publisher', { domain });
      if (answer.status !== 200)
        return sendHtml(reply, page(domain, refusal(answer), { section: '/publishers' }), answer.status, false);
      const p = answer.body;
      const adagents = object(p['adagents']);
      const properties = list(p['properties']);
      const stale = properties.filter((x) => x['status'] === 'stale');
      const agents = list(p['authorized_agents']).map(
        (a) =>
          html`<tr>
            <td>!${agentLink(a['agent_url'])}</td>
            <td>${text(a['authorized_for'])}</td>
            <td>${text(a['delegation_type']) || 'direct'}</td>
            <td>${text(a['authorization_type'])}</td>
            <td>${`${count(a['properties_authorized'])} of ${count(a['properties_total'])}`}</td>
          </tr>`,
      );
      const body = html`!${facts([
          ['adagents.json', p['adagents_valid'] === true ? badge('valid', 'good') : badge('missing or invalid', 'bad')],
          ['Status', status(adagents['status'])],
          ['Why stale', html`${text(adagents['stale_reason'])}`],
          ['File', text(adagents['document_url']) ? html`<code>${text(adagents['document_url'])}</code>` : ''],
          ['Managed by', domainLink('publishers', p['manager_domain'])],
          ['Discovered', when(adagents['discovered_at'])],
        ])}
        <h2>Properties</h2>
        !${propertiesByType(properties)}
        !${
          stale.length > 0
            ? html`<h2>Stale properties</h2>
                <ul>
                  !${stale.map((x) => html`<li>${text(x['name'])} (${text(x['property_id'])})</li>`)}
                </ul>`
            : ''
        }
        <h2>Authorized agents</h2>
        !${table('Authorized agents', ['Agent', 'Authorized for', 'Delegation', 'Scope', 'Properties'], agents, 'No agent is authorized.')}
        <p>
          <a href="/check?publisher_domain=${encodeURIComponent(domain)}">Check an agent against this publisher</a> ·
          <a href="/adagents?domain=${encodeURIComponent(domain)}">Validate its adagents.json</a> ·
          <a href="/api/registry/publisher?domain=${encodeURIComponent(domain)}">This publisher in the API</a>
        </p>`;
      return sendHtml(reply, page(domain, body, { section: '/publishers' }), 200, false);
    },
  );
}

function status(value: unknown): string {
  const s = text(value);
  return s ? badge(s, s === 'active' ? 'good' : 'warn') : '';
}

/** A publisher's properties, one table a type, each with its identifiers. */
function propertiesByType(properties: Json[]): string {
  if (properties.length === 0) return html`<p class="muted">No property declared.</p>`;
  const types = [...new Set(properties.map((x) => text(x['property_type']) || 'other'))].sort();
  return types
    .map((type) => {
      const rows = properties
        .filter((x) => (text(x['property_type']) || 'other') === type)
        .map(
          (x) =>
            html`<tr>
              <td>${text(x['name'])}</td>
              <td><code>${text(x['property_id'])}</code></td>
              <td>
                !${list(x['identifiers']).map((i) => html`<code>${text(i['type'])}: ${text(i['value'])}</code> `)}
              </td>
              <td>${(Array.isArray(x['tags']) ? x['tags'] : []).join(', ')}</td>
              <td>!${status(x['status'])}</td>
            </tr>`,
        );
      return html`<h3>${type.replaceAll('_', ' ')}</h3>
        !${table(type, ['Name', 'Id', 'Identifiers', 'Tags', 'Status'], rows, '')}`;
    })
    .join('');
}
