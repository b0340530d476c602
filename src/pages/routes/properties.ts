import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import type { ApiReader } from '../api.ts';
import { agentLink, badge, count, domainLink, object, text, when } from '../parts.ts';
import { listRoute } from './list-page.ts';
import { records } from '../../protocol/json-values.ts';

/** `/properties`: each publisher's declared properties and the agents authorized for them, searched and paged as the API does. */
export function propertiesRoute(app: FastifyInstance, api: ApiReader): void {
  listRoute(app, api, {
    path: '/properties',
    title: 'Properties',
    source: '/api/properties/registry',
    items: 'properties',
    searchLabel: 'Search by publisher domain',
    noun: 'publishers’ properties',
    headings: ['Publisher', 'Properties', 'Authorized agents', 'Status', 'Source', 'Updated'],
    row: (p) =>
      html`<tr>
        <td>!${domainLink('publishers', p['publisher_domain'])}</td>
        <td>
          !${records(p['properties']).map((x) => html`${text(x['name'])} <span class="muted">(${text(x['type']).replaceAll('_', ' ')})</span><br />`)}
        </td>
        <td>!${records(p['authorized_agents']).map((a) => html`!${agentLink(a['url'])}<br />`)}</td>
        <td>!${badge(text(p['status']), p['status'] === 'active' ? 'good' : 'warn')}</td>
        <td>${text(p['source'])}</td>
        <td>!${when(p['updated_at'])}</td>
      </tr>`,
    empty: 'No property matches.',
    note: (answer) => `${count(object(answer['stats'])['stale'])} stale`,
  });
}
