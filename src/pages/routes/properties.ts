import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader } from '../api.ts';
import { agentLink, badge, count, domainLink, list, nextPage, refusal, table, text, when } from '../parts.ts';
import { searchForm } from './brands.ts';
import { listQuery, type ListQuery } from './page-schemas.ts';

const pageSize = 50;

/** `/properties`: each publisher's declared properties and the agents authorized for them, searched and paged as the API does. */
export function propertiesRoute(app: FastifyInstance, api: ApiReader): void {
  app.get<{ Querystring: ListQuery }>(
    '/properties',
    { schema: { hide: true, querystring: listQuery } },
    async (request, reply) => {
      const { q, cursor } = request.query;
      const answer = await api(request, '/api/properties/registry', { q, cursor, limit: pageSize });
      if (answer.status !== 200)
        return sendHtml(reply, page('Properties', refusal(answer), { section: '/properties' }), answer.status, false);
      const rows = list(answer.body['properties']).map(
        (p) =>
          html`<tr>
            <td>!${domainLink('publishers', p['publisher_domain'])}</td>
            <td>
              !${list(p['properties']).map((x) => html`${text(x['name'])} <span class="muted">(${text(x['type']).replaceAll('_', ' ')})</span><br />`)}
            </td>
            <td>!${list(p['authorized_agents']).map((a) => html`!${agentLink(a['url'])}<br />`)}</td>
            <td>!${badge(text(p['status']), p['status'] === 'active' ? 'good' : 'warn')}</td>
            <td>${text(p['source'])}</td>
            <td>!${when(p['updated_at'])}</td>
          </tr>`,
      );
      const body = html`!${searchForm('/properties', 'Search by publisher domain', q)}
        <p class="muted">
          ${String(answer.body['total'] ?? 0)} publishers’ properties${q ? ` matching “${q}”` : ''};
          ${count(answer.body['stats'] && (answer.body['stats'] as Record<string, unknown>)['stale'])} stale.
        </p>
        !${table('Properties', ['Publisher', 'Properties', 'Authorized agents', 'Status', 'Source', 'Updated'], rows, 'No property matches.')}
        !${nextPage('/properties', { q }, answer.body)}`;
      return sendHtml(reply, page('Properties', body, { section: '/properties', query: q }), 200, false);
    },
  );
}
