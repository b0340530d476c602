import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader } from '../api.ts';
import { count, object } from '../parts.ts';

/**
 * `/`: what this registry is, its counts as the API's stats give them, the search, and where to
 * start: each part of the site, and the two calls a developer makes first.
 */
export function homeRoute(app: FastifyInstance, api: ApiReader): void {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const stats = (await api(request, '/api/registry/stats')).body;
    const origin = `${request.protocol}://${request.host}`;
    const total = (section: string) => count(object(stats[section])['total']);
    const cards: Array<[string, number, string]> = [
      ['Brands', total('brands'), '/brands'],
      ['Publishers', total('publishers'), '/publishers'],
      ['Properties', total('properties'), '/properties'],
      ['Agents', total('agents'), '/agents'],
      ['Authorizations', total('authorizations'), '/check'],
    ];
    const body = html`<p class="lead">
        This registry resolves brands and publishers, lists and searches the agents that sell, sign, create and govern
        advertising, serves a change feed, and answers in real time whether an agent may sell a publisher’s inventory.
      </p>
      <ul class="cards" aria-label="What the registry holds">
        !${cards.map(
          ([label, n, href]) =>
            html`<li>
              <a href="${href}"><span class="count">${n.toLocaleString('en')}</span>${label}</a>
            </li>`,
        )}
      </ul>
      <form method="get" action="/search" class="inline" role="search">
        <div>
          <label for="home-search">Find a brand, publisher or property</label>
          <input
            id="home-search"
            type="search"
            name="q"
            placeholder="northwind, dailyharbor.example…"
            maxlength="200"
            required
          />
        </div>
        <button type="submit">Search</button>
      </form>
      <h2>Where to start</h2>
      <ul>
        <li><a href="/check">Check an authorization</a>: may this agent sell this publisher’s property?</li>
        <li><a href="/agents">Browse the agents</a>, then call one in the <a href="/playground">playground</a>.</li>
        <li><a href="/feed">Watch the change feed</a> as the registry changes.</li>
        <li><a href="/adagents">Build or validate an adagents.json</a> for a publisher.</li>
        <li><a href="/dashboard">Sign in to the dashboard</a> for API keys and your organization’s agents.</li>
        <li><a href="/docs">The API reference</a>, every route with its schema.</li>
      </ul>
      <h2>From a terminal</h2>
      <pre tabindex="0"><code>curl -s '${origin}/api/brands/resolve?domain=northwind.example'
curl -s '${origin}/api/registry/validate/property-authorization?agent_url=https://sales.bluefin-network.example/mcp&amp;publisher_domain=dailyharbor.example&amp;property_id=harbor_web'</code></pre>`;
    return sendHtml(reply, page('The ap registry', body, { section: '/' }), 200, false);
  });
}
