import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader } from '../api.ts';
import { domainLink, sendRefusal, table, text } from '../parts.ts';
import { searchForm } from './list-page.ts';
import { listQuery, type ListQuery } from './page-schemas.ts';
import { records } from '../../protocol/json-values.ts';

/** `/search`: the site's search box, answered by the API's one search over brands, publishers and properties. */
export function searchRoute(app: FastifyInstance, api: ApiReader): void {
  app.get<{ Querystring: ListQuery }>(
    '/search',
    { schema: { hide: true, querystring: listQuery } },
    async (request, reply) => {
      const q = request.query.q?.trim() ?? '';
      if (!q) return sendHtml(reply, page('Search', searchForm('/search', 'Search the registry', q)), 200, false);
      const answer = await api(request, '/api/search', { q, limit: 20 });
      if (answer.status !== 200) return sendRefusal(reply, 'Search', answer, { query: q });
      const brands = records(answer.body['brands']).map(
        (b) =>
          html`<tr>
            <td>!${domainLink('brands', b['domain'])}</td>
            <td>${text(b['brand_name'])}</td>
            <td>${text(b['source'])}</td>
          </tr>`,
      );
      const publishers = records(answer.body['publishers']).map(
        (p) =>
          html`<tr>
            <td>!${domainLink('publishers', p['domain'])}</td>
            <td>${String(p['agent_count'] ?? '')}</td>
          </tr>`,
      );
      const properties = records(answer.body['properties']).map(
        (p) =>
          html`<tr>
            <td>${text(p['name'])}</td>
            <td>${text(p['type'])}</td>
            <td>!${domainLink('publishers', p['publisher_domain'])}</td>
          </tr>`,
      );
      const body = html`!${searchForm('/search', 'Search the registry', q)}
        <h2>Brands</h2>
        !${table('Brands', ['Domain', 'Name', 'Source'], brands, 'No brand matches.')}
        <h2>Publishers</h2>
        !${table('Publishers', ['Domain', 'Agents'], publishers, 'No publisher matches.')}
        <h2>Properties</h2>
        !${table('Properties', ['Name', 'Type', 'Publisher'], properties, 'No property matches.')}`;
      return sendHtml(reply, page(`Search: ${q}`, body, { query: q }), 200, false);
    },
  );
}
