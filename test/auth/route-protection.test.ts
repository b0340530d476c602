import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RouteEntry } from '../../src/http/route-table.ts';
import { dailyPlanet, publishAdagents } from '../support/authorization-world.ts';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { REDIRECT_URI } from '../support/identity.ts';
import { startPublishers, type Publishers } from '../support/publishers.ts';
import { postJson } from '../support/requests.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { summary } from './helpers.ts';

/**
 * Built from the server's own route table (`app.routeTable`): every route that requires a
 * credential answers 401 without one, and every public route answers 2xx to the example request
 * below. A route added without an example (or an exemption with its reason) fails this suite.
 */

/** A request that a public route answers with 2xx, given the data `seed` stores. */
interface Example {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Only where the route's success is not a 2xx; say why next to it. */
  status?: number;
}

const examples: Record<string, Example> = {
  'GET /healthz': { path: '/healthz' },
  'GET /readyz': { path: '/readyz' },
  'GET /metrics': { path: '/metrics' },
  'GET /openapi/registry.yaml': { path: '/openapi/registry.yaml' },
  'GET /.well-known/openapi.yaml': { path: '/.well-known/openapi.yaml' },
  'GET /docs': { path: '/docs' },
  'HEAD /docs/': { path: '/docs/' },
  // @fastify/swagger-ui's alias of the page it serves at /docs/.
  'GET /docs/static/index.html': { path: '/docs/static/index.html', status: 302 },
  'GET /docs/static/swagger-initializer.js': { path: '/docs/static/swagger-initializer.js' },
  'GET /docs/static/*': { path: '/docs/static/swagger-ui.css' },
  'GET /docs/json': { path: '/docs/json' },
  'GET /docs/yaml': { path: '/docs/yaml' },
  // CORS preflight: public GET routes answer any origin.
  'OPTIONS *': {
    path: '/api/brands/resolve',
    headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
  },

  'GET /.well-known/oauth-protected-resource/api': { path: '/.well-known/oauth-protected-resource/api' },
  'GET /.well-known/oauth-protected-resource/mcp': { path: '/.well-known/oauth-protected-resource/mcp' },
  'GET /.well-known/oauth-authorization-server': { path: '/.well-known/oauth-authorization-server' },
  'GET /.well-known/openid-configuration': { path: '/.well-known/openid-configuration' },
  'GET /jwks': { path: '/jwks' },
  'POST /register': { path: '/register', body: { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' } },
  'GET /session/end': { path: '/session/end' },
  'GET /session/end/success': { path: '/session/end/success' },
  'GET /dashboard/login': { path: '/dashboard/login' },
  // The site's link to the dashboard: on to its first section (sign-in first without a session).
  'GET /dashboard': { path: '/dashboard', status: 302 },

  // The pages people browse (src/pages), each reading the public API.
  'GET /assets/site.css': { path: '/assets/site.css' },
  'GET /assets/feed.js': { path: '/assets/feed.js' },
  'GET /assets/playground.js': { path: '/assets/playground.js' },
  'GET /': { path: '/' },
  'GET /search': { path: '/search?q=acme' },
  'GET /brands': { path: '/brands' },
  'GET /brands/:domain': { path: '/brands/acme.example' },
  'GET /publishers': { path: '/publishers' },
  'GET /publishers/:domain': { path: '/publishers/dailyplanet.example' },
  'GET /properties': { path: '/properties' },
  'GET /agents': { path: '/agents' },
  'GET /agents/view': { path: '/agents/view?url=https%3A%2F%2Fsales.operator.ap.test%2Fmcp' },
  'GET /operators/:domain': { path: '/operators/operator.ap.test' },
  'GET /check': { path: '/check' },
  'GET /adagents': { path: '/adagents' },
  'POST /adagents': { path: '/adagents', body: { action: 'validate', document: '{}' } },
  'GET /feed': { path: '/feed' },
  // The feed wants a credential: the visitor's, refused here as the API refuses it (401 page).
  'POST /feed': { path: '/feed', body: { credential: 'not-a-key' }, status: 401 },
  'GET /playground': { path: '/playground' },
  // A call that fails (no agent named) is shown as the answer: the page itself is fine.
  'POST /playground': { path: '/playground', body: { agent: '', task: 'get_products' } },

  'GET /api/brands/resolve': { path: '/api/brands/resolve?domain=acme.example' },
  'POST /api/brands/resolve/bulk': {
    path: '/api/brands/resolve/bulk',
    body: { domains: ['acme.example', 'unknown.example'] },
  },
  'GET /api/brands/brand-json': { path: '/api/brands/brand-json?domain=house.ap.test' },
  'GET /api/brands/registry': { path: '/api/brands/registry' },
  'GET /api/brands/enrich': { path: '/api/brands/enrich?domain=shop.ap.test' },
  'GET /api/brands/history': { path: '/api/brands/history?domain=acme.example' },
  'GET /api/brands/find': { path: '/api/brands/find?q=acme' },
  'GET /api/properties/resolve': { path: '/api/properties/resolve?domain=news.example' },
  'GET /api/policies/registry': { path: '/api/policies/registry' },
  'GET /api/policies/resolve': { path: '/api/policies/resolve?policy_id=acme_brand_safety' },
  'POST /api/policies/resolve/bulk': {
    path: '/api/policies/resolve/bulk',
    body: { policy_ids: ['acme_brand_safety', 'unknown_policy'] },
  },
  'GET /api/policies/history': { path: '/api/policies/history?policy_id=acme_brand_safety' },
  'POST /api/properties/resolve/bulk': { path: '/api/properties/resolve/bulk', body: { domains: ['news.example'] } },
  'GET /api/properties/registry': { path: '/api/properties/registry' },
  'GET /api/properties/validate': { path: '/api/properties/validate?domain=pub.ap.test' },
  'GET /api/properties/history': { path: '/api/properties/history?domain=news.example' },
  'POST /api/properties/check': {
    path: '/api/properties/check',
    body: { domains: ['www.news.example', 'unknown.example'] },
  },
  // Its path, with the id of a report made in `before`.
  'GET /api/properties/check/:reportId': { path: '' },
  'GET /api/search': { path: '/api/search?q=acme' },
  'GET /api/registry/agents': { path: '/api/registry/agents?capabilities=true&properties=true' },
  'GET /api/registry/operator': { path: '/api/registry/operator?domain=operator.ap.test' },
  'GET /api/registry/agents/:url/compliance': {
    path: '/api/registry/agents/https%3A%2F%2Fsales.operator.ap.test%2Fmcp/compliance',
  },
  'GET /api/registry/validate/property-authorization': {
    path: '/api/registry/validate/property-authorization?agent_url=https%3A%2F%2Fsales.example%2Fmcp&identifier_type=domain&identifier_value=news.example',
  },
  'POST /api/registry/validate/property-authorization': {
    path: '/api/registry/validate/property-authorization',
    body: {
      checks: [{ agent_url: 'https://sales.example/mcp', identifier: { type: 'domain', value: 'news.example' } }],
    },
  },
  'GET /api/registry/lookup/domain/:domain': { path: '/api/registry/lookup/domain/news.example' },
  'GET /api/registry/lookup/property': {
    path: '/api/registry/lookup/property?identifier_type=domain&identifier_value=news.example',
  },
  'GET /api/registry/lookup/agent/:agentUrl/domains': {
    path: '/api/registry/lookup/agent/https%3A%2F%2Fsales.example%2Fmcp/domains',
  },
  'POST /api/registry/validate/product-authorization': {
    path: '/api/registry/validate/product-authorization',
    body: {
      agent_url: 'https://sales.example/mcp',
      publisher_properties: [{ selection_type: 'all', publisher_domain: 'news.example' }],
    },
  },
  'GET /api/registry/publisher': { path: '/api/registry/publisher?domain=dailyplanet.example' },
  'POST /api/adagents/validate': { path: '/api/adagents/validate', body: { domain: 'pub.ap.test' } },
  'POST /api/adagents/create': {
    path: '/api/adagents/create',
    body: {
      publisher_domain: 'news.example',
      properties: [
        {
          property_id: 'site',
          property_type: 'website',
          name: 'News',
          identifiers: [{ type: 'domain', value: 'news.example' }],
        },
      ],
      authorized_agents: [{ url: 'https://sales.example/mcp', authorized_for: 'All' }],
    },
  },
  'GET /api/manifest-refs/lookup': { path: '/api/manifest-refs/lookup?domain=dailyplanet.example' },
  'GET /api/public/validate-publisher': { path: '/api/public/validate-publisher?domain=pub.ap.test' },
  // No agent serves pub.ap.test here: the probe's 502 not_an_agent shows it ran without a credential.
  'GET /api/public/discover-agent': {
    path: '/api/public/discover-agent?url=https%3A%2F%2Fpub.ap.test%2Fmcp',
    status: 502,
  },
  'GET /api/public/agent-formats': {
    path: '/api/public/agent-formats?url=https%3A%2F%2Fpub.ap.test%2Fmcp',
    status: 502,
  },
  'GET /api/public/agent-products': {
    path: '/api/public/agent-products?url=https%3A%2F%2Fpub.ap.test%2Fmcp&brief=news',
    status: 502,
  },
  'GET /api/registry/publishers': { path: '/api/registry/publishers?q=planet&limit=5' },
  'GET /api/registry/stats': { path: '/api/registry/stats' },
  'POST /api/registry/expand/product-identifiers': {
    path: '/api/registry/expand/product-identifiers',
    body: { publisher_properties: [{ selection_type: 'all', publisher_domain: 'news.example' }] },
  },
};

/** `METHOD url` for each method and url. */
const every = (methods: string[], urls: string[]) => methods.flatMap((m) => urls.map((u) => `${m} ${u}`));

/** Public routes with no 2xx example, each group with its reason. Every entry must be a route. */
const exemptions: Array<{ routes: string[]; reason: string }> = [
  {
    routes: [
      ...every(['GET', 'HEAD', 'POST'], ['/authorize', '/me']),
      ...every(['GET', 'HEAD'], ['/authorize/:uid', '/register/:clientId']),
      ...every(['POST'], ['/token', '/token/revocation', '/session/end', '/session/end/confirm']),
    ],
    reason:
      'oidc-provider’s protocol endpoints, mounted for the methods it serves: outside a flow they answer as OAuth says (redirects, 400 invalid_request or invalid_grant, ' +
      '401 for /me and /register/:clientId, which take the provider’s own tokens). The flow and refusal suites drive /authorize and /token.',
  },
  {
    routes: [
      'GET /interaction/:uid',
      'HEAD /interaction/:uid',
      ...every(['POST'], ['/interaction/:uid/login', '/interaction/:uid/confirm', '/interaction/:uid/abort']),
    ],
    reason:
      'sign-in and consent pages of a live authorization request (its cookie and uid); oauth-flow and interaction-pages drive them',
  },
  {
    routes: ['POST /dashboard/login'],
    reason: 'the dashboard’s sign-in form: 303 when the password is right, 401 page when not (test/dashboard)',
  },
  {
    routes: [
      ...every(['GET', 'HEAD', 'POST'], ['/dashboard/api-keys', '/dashboard/agents']),
      'POST /dashboard/api-keys/:id/revoke',
      'GET /dashboard/agents/manage',
      'HEAD /dashboard/agents/manage',
      'POST /dashboard/agents/change',
      'POST /dashboard/agents/remove',
      'POST /dashboard/logout',
    ],
    reason:
      'behind the dashboard’s own session cookie, not a Bearer credential: without a session they send the browser to sign in (asserted below)',
  },
];

const keyOf = (r: Pick<RouteEntry, 'method' | 'url'>) => `${r.method} ${r.url}`;
const exempt = new Map(exemptions.flatMap(({ routes, reason }) => routes.map((route) => [route, reason] as const)));
const sessionPages = exemptions.at(-1)!;

eachEngine('route protection, from the route table', (engine) => {
  let publishers: Publishers;
  let server: TestServer;
  let routes: RouteEntry[];

  before(async () => {
    publishers = await startPublishers();
    server = await startTestServer(engine, { deps: { fetcher: publishers.fetcher } });
    routes = server.app.routeTable;
    // What the public examples read: a brand, a property entry and a policy (with history), an enrolled
    // agent, a house's brand.json, a site to enrich from and a publisher's adagents.json.
    assert.equal(
      (await postJson(`${server.url}/api/brands/save`, { domain: 'acme.example', brand_name: 'Acme' })).status,
      201,
    );
    const property = {
      publisher_domain: 'news.example',
      authorized_agents: [{ url: 'https://agent.sellers.example/ap' }],
    };
    assert.equal((await postJson(`${server.url}/api/properties/save`, property)).status, 201);
    const policy = {
      policy_id: 'acme_brand_safety',
      version: '1.0.0',
      name: 'Acme Brand Safety',
      category: 'standard',
      enforcement: 'should',
      policy: 'No ads next to violent content.',
    };
    assert.equal((await postJson(`${server.url}/api/policies/save`, policy)).status, 201);
    const check = await postJson(`${server.url}/api/properties/check`, { domains: ['news.example'] });
    assert.equal(check.status, 200);
    examples['GET /api/properties/check/:reportId'] = {
      path: `/api/properties/check/${(await json(check)).report_id}`,
    };
    // An agent in the catalog, for the operator lookup (the admin key's organization needs no proof).
    assert.equal(
      (
        await postJson(`${server.url}/api/registry/agents`, {
          agent_url: 'https://sales.operator.ap.test/mcp',
          type: 'sales',
          name: 'Operator sales',
        })
      ).status,
      201,
    );
    publishers.serve('house.ap.test', '/.well-known/brand.json', {
      body: { house: { domain: 'house.ap.test', name: 'House' }, brands: [] },
    });
    publishers.serve('shop.ap.test', '/', { body: '<html><head><title>Shop</title></head><body></body></html>' });
    publishers.serve('pub.ap.test', '/.well-known/adagents.json', {
      body: { authorized_agents: [{ url: 'https://agent.sellers.example/ap', authorized_for: 'All' }] },
    });
    // A publisher the authorization index knows, for the publisher views.
    await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet());
    await server.app.authorizationIndex.until((f) => f.index.publisher('dailyplanet.example') !== undefined);
  });
  after(async () => {
    await server.close();
    await publishers.fetcher.close();
    await publishers.close();
  });

  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
  /** A concrete path for a route pattern: each parameter becomes a plausible value. */
  const pathOf = (url: string) =>
    url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

  describe('routes that require a credential', () => {
    const required = () => routes.filter((r) => r.auth === 'required');

    it('are the saves and rollbacks, at least', () => {
      const keys = required().map(keyOf);
      for (const key of [
        'POST /api/brands/save',
        'POST /api/brands/rollback',
        'POST /api/properties/save',
        'POST /api/properties/rollback',
        'POST /api/policies/save',
      ]) {
        assert.ok(keys.includes(key), `${key} requires a credential`);
      }
    });

    it('answer 401 with a Bearer challenge without a credential', async () => {
      for (const route of required()) {
        const withBody = route.method !== 'GET' && route.method !== 'HEAD';
        const res = await call(route.method, pathOf(route.url), withBody ? { body: {} } : {});
        const seen = await summary(res);
        assert.equal(seen.status, 401, `${keyOf(route)}: ${JSON.stringify(seen)}`);
        assert.match(seen.challenge ?? '', /^Bearer /, keyOf(route));
        // The registry's MCP endpoint is a protected resource of its own (RFC 9728); every other route is the REST API's.
        const resource = route.url === '/mcp' ? 'mcp' : 'api';
        assert.ok(
          seen.challenge!.includes(
            `resource_metadata="${server.url}/.well-known/oauth-protected-resource/${resource}"`,
          ),
          keyOf(route),
        );
        if (route.method !== 'HEAD') assert.equal((seen.body as { error: string }).error, 'unauthorized', keyOf(route));
      }
    });

    it('answer 401 invalid_token to a bad credential', async () => {
      const bad = [
        'ap_000000000000_' + 'A'.repeat(43),
        'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
        'not-a-credential',
      ];
      for (const route of required()) {
        for (const credential of bad) {
          const withBody = route.method !== 'GET' && route.method !== 'HEAD';
          const res = await call(route.method, pathOf(route.url), {
            headers: { authorization: `Bearer ${credential}` },
            ...(withBody ? { body: {} } : {}),
          });
          const seen = await summary(res);
          assert.equal(seen.status, 401, `${keyOf(route)} with ${credential}: ${JSON.stringify(seen)}`);
          assert.match(seen.challenge ?? '', /error="invalid_token"/, keyOf(route));
        }
      }
    });
  });

  describe('public routes', () => {
    const publicRoutes = () => routes.filter((r) => r.auth !== 'required');
    /** A HEAD route Fastify derives from a GET route is covered by that route's example. */
    const exampleFor = (route: RouteEntry): Example | undefined =>
      examples[keyOf(route)] ?? (route.method === 'HEAD' ? examples[`GET ${route.url}`] : undefined);

    it('each have an example or a reasoned exemption', () => {
      const uncovered = publicRoutes().filter((r) => !exampleFor(r) && !exempt.has(keyOf(r)));
      assert.deepEqual(
        uncovered.map(keyOf),
        [],
        'add an example request (or, for a hidden provider or dashboard page, an exemption with its reason)',
      );
    });

    it('the table names no route the server lacks, and nothing twice', () => {
      const all = new Set(routes.map(keyOf));
      const required = new Set(routes.filter((r) => r.auth === 'required').map(keyOf));
      assert.deepEqual(
        Object.keys(examples).filter((k) => !all.has(k)),
        [],
        'examples for routes that do not exist',
      );
      assert.deepEqual(
        [...exempt.keys()].filter((k) => !all.has(k)),
        [],
        'exemptions for routes that do not exist',
      );
      assert.deepEqual(
        Object.keys(examples).filter((k) => exempt.has(k)),
        [],
        'both an example and an exemption',
      );
      assert.deepEqual(
        [...Object.keys(examples), ...exempt.keys()].filter((k) => required.has(k)),
        [],
        'protected routes are never exempt',
      );
      for (const key of exempt.keys()) {
        const route = routes.find((r) => keyOf(r) === key)!;
        assert.equal(route.schema?.hide, true, `${key}: only hidden provider and dashboard routes may be exempt`);
      }
    });

    it('answer 2xx to their example without a credential', async () => {
      const failures: string[] = [];
      let ran = 0;
      for (const route of publicRoutes()) {
        const example = exampleFor(route);
        if (!example) continue;
        ran++;
        const res = await call(route.method, example.path, { body: example.body, headers: example.headers });
        const ok = example.status !== undefined ? res.status === example.status : res.status >= 200 && res.status < 300;
        if (!ok) failures.push(`${keyOf(route)} ${example.path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
        else await res.arrayBuffer();
      }
      assert.deepEqual(failures, []);
      assert.ok(ran > Object.keys(examples).length, 'every example ran, and the HEAD routes derived from them');
    });

    it('behind the dashboard session send the browser to sign in when there is none', async () => {
      const pages = routes.filter((r) => sessionPages.routes.includes(keyOf(r)));
      assert.equal(pages.length, sessionPages.routes.length);
      for (const route of pages) {
        const res = await fetch(`${server.url}${pathOf(route.url)}`, {
          method: route.method,
          redirect: 'manual',
          ...(route.method === 'POST'
            ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=k' }
            : {}),
        });
        assert.equal(res.status, 303, keyOf(route));
        assert.match(res.headers.get('location') ?? '', /^\/dashboard\/login\b/, keyOf(route));
      }
    });
  });
});
