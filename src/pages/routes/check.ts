import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader, Json } from '../api.ts';
import { agentLink, domainLink, object, refusal, text, textField } from '../parts.ts';
import { records } from '../../protocol/json-values.ts';

interface CheckQuery {
  agent_url?: string;
  publisher_domain?: string;
  property_id?: string;
  identifier_type?: string;
  identifier_value?: string;
}

const field = { type: 'string', maxLength: 2048 } as const;

/**
 * `/check`: the real-time authorization check as a form. The verdict is the API's
 * (`/api/registry/validate/property-authorization`), explained in words from both sides: what
 * the publisher's adagents.json says of the agent, and what the agent's operator declares.
 */
export function checkRoute(app: FastifyInstance, api: ApiReader): void {
  app.get<{ Querystring: CheckQuery }>(
    '/check',
    {
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: {
            agent_url: field,
            publisher_domain: { type: 'string', maxLength: 253 },
            property_id: { type: 'string', maxLength: 256 },
            identifier_type: { type: 'string', maxLength: 64 },
            identifier_value: { type: 'string', maxLength: 1024 },
          },
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const asked = Boolean(q.agent_url && (q.publisher_domain || q.identifier_value));
      const answer = asked ? await api(request, '/api/registry/validate/property-authorization', { ...q }) : undefined;
      const verdict = !answer ? '' : answer.status === 200 ? explain(answer.body) : refusal(answer);
      const body = html`<p>
          May this agent sell this property? Name the agent and the property, by the publisher’s domain and its property
          id, or by an identifier (a domain, an app bundle, a store id).
        </p>
        <form method="get" action="/check">
          !${textField('Agent URL', 'agent_url', q.agent_url, {
            type: 'url',
            required: true,
            placeholder: 'https://sales.example.com/mcp',
          })}
          !${textField('Publisher domain', 'publisher_domain', q.publisher_domain, { placeholder: 'dailyharbor.example' })}
          !${textField('Property id', 'property_id', q.property_id, { placeholder: 'harbor_web' })}
          !${textField('Or an identifier’s type', 'identifier_type', q.identifier_type, {
            placeholder: 'domain, ios_bundle, roku_store_id…',
          })}
          !${textField('and its value', 'identifier_value', q.identifier_value, { placeholder: 'dailyharbor.example' })}
          <button type="submit">Check</button>
        </form>
        <div aria-live="polite">!${verdict}</div>`;
      return sendHtml(reply, page('Check an authorization', body, { section: '/check', narrow: true }), 200, false);
    },
  );
}

/** The API's verdict in words: the answer, then each side of it. */
function explain(body: Json): string {
  const result = object(body['result']);
  const publisher = object(body['publisher']);
  const operator = object(body['operator']);
  const property = object(body['property']);
  const authorized = body['authorized'] === true;
  const violation = object(result['violation']);
  const agent = agentLink(body['agent_url']);
  const domain = text(result['publisher_domain']) || text(publisher['domain']);
  const what = text(property['name']) ? html`<strong>${text(property['name'])}</strong> of ` : '';
  const grants = records(publisher['authorizations']);
  const declarations = records(operator['declarations']);
  const publisherSide =
    text(publisher['file']) !== 'found'
      ? html`The registry holds no adagents.json for !${domainLink('publishers', domain)}.`
      : grants.length > 0
        ? html`The adagents.json of !${domainLink('publishers', domain)} authorizes the
          agent${grants
            .map((g) => text(g['authorized_for']))
            .filter(Boolean)
            .map((f) => ` for “${f}”`)
            .join(';')}${text(body['delegation_type']) ? ` (delegation: ${text(body['delegation_type'])})` : ''}.`
        : html`The adagents.json of !${domainLink('publishers', domain)} does not authorize this agent for it.`;
  const operatorSide =
    declarations.length === 0
      ? 'No operator declares this agent in its brand.json.'
      : html`Declared by
        ${declarations.map((d) => `${text(d['operator_domain'])} (${text(d['relationship'])})`).join(', ')}${
          publisher['delegation_confirmed'] === true ? '; the publisher confirms the delegation.' : '.'
        }`;
  return html`<section class="verdict ${authorized ? 'good' : 'bad'}" aria-label="Verdict">
    <h2>${authorized ? 'Authorized' : 'Not authorized'}</h2>
    <p>
      !${agent} !${authorized ? 'may sell' : 'may not sell'} !${what}!${domainLink('publishers', domain)}.
      ${text(violation['message'])}
    </p>
    <h3>The publisher’s side</h3>
    <p>!${publisherSide}</p>
    <h3>The operator’s side</h3>
    <p>!${operatorSide}</p>
    <p class="muted">
      Checked at ${text(body['checked_at'])}. The same check as
      <code>GET /api/registry/validate/property-authorization</code>.
    </p>
  </section>`;
}
