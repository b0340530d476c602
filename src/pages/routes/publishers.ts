import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader, Json } from '../api.ts';
import { agentLink, badge, count, domainLink, facts, object, sendRefusal, table, text, when } from '../parts.ts';
import { listRoute } from './list-page.ts';
import { domainPageRoute } from './domain-page.ts';
import { records, strings } from '../../protocol/json-values.ts';

/** `/publishers` (paged as the API pages them) and `/publishers/:domain`: its properties, its authorized agents, its file. */
export function publisherRoutes(app: FastifyInstance, api: ApiReader): void {
  listRoute(app, api, {
    path: '/publishers',
    title: 'Publishers',
    source: '/api/registry/publishers',
    items: 'publishers',
    searchLabel: 'Search publishers',
    noun: 'publishers',
    headings: ['Domain', 'Status', 'Properties', 'Agents', 'adagents.json', 'Discovered'],
    row: (p) =>
      html`<tr>
        <td>!${domainLink('publishers', p['domain'])}</td>
        <td>!${status(p['status'])}</td>
        <td>${count(p['property_count'])}</td>
        <td>${count(p['agent_count'])}</td>
        <td>!${p['has_valid_adagents'] === true ? badge('valid', 'good') : badge('missing or invalid', 'bad')}</td>
        <td>!${when(p['discovered_at'])}</td>
      </tr>`,
    empty: 'No publisher matches.',
  });

  domainPageRoute(app, '/publishers/:domain', async (request, reply, domain) => {
    const [answer, fetches] = await Promise.all([
      api(request, '/api/registry/publisher', { domain }),
      api(request, '/api/manifest-refs/lookup', { domain }),
    ]);
    if (answer.status !== 200) return sendRefusal(reply, domain, answer, { section: '/publishers' });
    const p = answer.body;
    const adagents = object(p['adagents']);
    const properties = records(p['properties']);
    const stale = properties.filter((x) => x['status'] === 'stale');
    const agents = records(p['authorized_agents']).map(
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
        ['Last crawl', lastCrawl(fetches.body)],
        ['Next crawl', when(fetches.body['next_crawl_at'])],
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
  });
}

/** When the crawler last read the publisher's adagents.json, and how that went. */
function lastCrawl(fetches: Json): string {
  const file = object(fetches['adagents_json']);
  if (!text(fetches['last_crawled_at'])) return html`not crawled yet`;
  const outcome = text(file['status']);
  return html`!${when(fetches['last_crawled_at'])}:
  ${outcome}${text(file['reason']) ? ` (${text(file['reason'])})` : ''}`;
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
                !${records(x['identifiers']).map((i) => html`<code>${text(i['type'])}: ${text(i['value'])}</code> `)}
              </td>
              <td>${strings(x['tags']).join(', ')}</td>
              <td>!${status(x['status'])}</td>
            </tr>`,
        );
      return html`<h3>${type.replaceAll('_', ' ')}</h3>
        !${table(type, ['Name', 'Id', 'Identifiers', 'Tags', 'Status'], rows, '')}`;
    })
    .join('');
}
