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
  nextPage,
  object,
  sendRefusal,
  table,
  text,
  when,
} from '../parts.ts';
import { records, strings } from '../../protocol/json-values.ts';

const pageSize = 50;
const agentTypes = ['sales', 'buying', 'creative', 'signals', 'governance', 'brand', 'rights', 'measurement'] as const;
const enrichments = { health: true, compliance: true, verification: true, properties: true } as const;

interface AgentsQuery {
  type?: string;
  cursor?: string;
}

/**
 * `/agents`: the catalog with health, compliance and verification badges, by type; `/agents/view?url=`:
 * one agent (enrolled or only named by publishers): what it can do, who operates it, and which
 * publishers authorize it.
 */
export function agentRoutes(app: FastifyInstance, api: ApiReader): void {
  app.get<{ Querystring: AgentsQuery }>(
    '/agents',
    {
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['', ...agentTypes] },
            cursor: { type: 'string', maxLength: 1024 },
          },
        },
      },
    },
    async (request, reply) => {
      const { type, cursor } = request.query;
      const answer = await api(request, '/api/registry/agents', { ...enrichments, type, cursor, limit: pageSize });
      if (answer.status !== 200) return sendRefusal(reply, 'Agents', answer, { section: '/agents' });
      const rows = records(answer.body['agents']).map(
        (a) =>
          html`<tr>
            <td>
              !${agentLink(a['agent_url'], text(a['name']) || text(a['agent_url']))}<br /><code
                >${text(a['agent_url'])}</code
              >
            </td>
            <td>${text(a['type'])}</td>
            <td>${text(object(a['operator'])['name'])}</td>
            <td>!${badges(a)}</td>
            <td>${count(object(a['property_summary'])['total_count'])}</td>
          </tr>`,
      );
      const filter = html`<form method="get" action="/agents" class="inline">
        <div>
          <label for="agent-type">Type</label>
          <select id="agent-type" name="type">
            <option value="">Every type</option>
            !${agentTypes.map((t) => html`<option value="${t}" ${t === type ? ' selected' : ''}>${t}</option>`)}
          </select>
        </div>
        <button type="submit">Show</button>
      </form>`;
      const body = html`!${filter}
        !${table('Agents', ['Agent', 'Type', 'Operator', 'Status', 'Properties'], rows, 'No agent is enrolled.')}
        !${nextPage('/agents', { type }, answer.body)}
        <p class="muted">
          Agents that publishers name in their adagents.json but no member enrolled are found from each
          <a href="/publishers">publisher</a>.
        </p>`;
      return sendHtml(reply, page('Agents', body, { section: '/agents' }), 200, false);
    },
  );

  app.get<{ Querystring: { url: string } }>(
    '/agents/view',
    {
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: { url: { type: 'string', minLength: 1, maxLength: 2048 } },
          required: ['url'],
        },
      },
    },
    async (request, reply) => {
      const { url } = request.query;
      const [catalog, publishers] = await Promise.all([
        api(request, '/api/registry/agents', { ...enrichments, capabilities: true, agent_url: url }),
        api(request, `/api/registry/lookup/agent/${encodeURIComponent(url)}/domains`, { limit: 100 }),
      ]);
      if (catalog.status !== 200 && publishers.status !== 200)
        return sendRefusal(reply, 'Agent', publishers, { section: '/agents' });
      const agent = records(catalog.body['agents'])[0];
      const authorizing = records(publishers.body['publishers']).map(
        (p) =>
          html`<tr>
            <td>!${domainLink('publishers', p['domain'])}</td>
            <td>${count(p['property_count'])}</td>
            <td>
              ${records(p['authorizations'])
                .map((a) => text(a['authorized_for']))
                .filter(Boolean)
                .join('; ')}
            </td>
            <td>
              ${[...new Set(records(p['authorizations']).map((a) => text(a['delegation_type']) || 'direct'))].join(', ')}
            </td>
          </tr>`,
      );
      const body = html`!${agent ? described(agent) : html`<p>No member has enrolled this agent in the catalog; publishers name it in their adagents.json.</p>`}
        <p><code>${url}</code></p>
        <h2>Publishers that authorize it</h2>
        !${table('Publishers', ['Publisher', 'Properties', 'Authorized for', 'Delegation'], authorizing, 'No publisher authorizes it.')}
        !${operatorLink(url)}
        <p>
          <a href="/playground?agent=${encodeURIComponent(url)}">Try it in the playground</a> ·
          <a href="/check?agent_url=${encodeURIComponent(url)}">Check its authorization for a property</a>
        </p>`;
      return sendHtml(reply, page(agent ? text(agent['name']) || url : url, body, { section: '/agents' }), 200, false);
    },
  );
}

function badges(agent: Json): string {
  const health = object(agent['health']);
  const compliance = object(agent['compliance']);
  const verified = object(agent['verification'])['verified'] === true;
  const online =
    health['online'] === true
      ? badge('online', 'good')
      : health['reachable'] === false
        ? badge('unreachable', 'bad')
        : badge('not probed yet', 'warn');
  const status = text(compliance['status']) || 'unknown';
  return [
    online,
    badge(`compliance: ${status}`, status === 'passing' ? 'good' : status === 'failing' ? 'bad' : 'warn'),
    verified ? badge('verified', 'good') : '',
  ].join(' ');
}

function described(agent: Json): string {
  const capabilities = object(agent['capabilities']);
  const summary = object(agent['property_summary']);
  const byType = Object.entries(object(summary['count_by_type'])).map(
    ([t, n]) => `${String(n)} ${t.replaceAll('_', ' ')}`,
  );
  const creative = object(agent['creative_capabilities']);
  const formats = records(creative['formats']).map((f) => text(f['name']) || text(object(f['format_id'])['id']));
  return html`<p>${text(agent['description'])}</p>
    !${facts([
      ['Type', html`${text(agent['type'])}`],
      ['Operator', html`${text(object(agent['operator'])['name'])}`],
      ['Status', badges(agent)],
      ['Visibility', html`${text(agent['visibility'])}`],
      ['Enrolled', when(agent['enrolled_at'])],
      ['Last probed', when(object(agent['health'])['last_probed_at'])],
      ['Tools', capabilities['tools_count'] ? html`${String(capabilities['tools_count'])}` : ''],
      ['Protocols', html`${strings(object(agent['health'])['protocols']).join(', ')}`],
      ['Formats', html`${formats.join(', ')}`],
      ['Sells', html`${byType.join(', ')}`],
    ])}`;
}

/** Its operator's page: the domain its host is under (`sales.example.com` → `example.com`), which the operator route reads with the hosts under it. */
function operatorLink(url: string): string {
  if (!URL.canParse(url)) return '';
  const labels = new URL(url).hostname.split('.');
  const domain = labels.length > 2 ? labels.slice(1).join('.') : labels.join('.');
  return html`<p>Its operator: !${domainLink('operators', domain)}.</p>`;
}
