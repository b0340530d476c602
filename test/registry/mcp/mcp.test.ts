import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { registryTools } from '../../../src/registry/mcp/tools.ts';
import { mcpClient, testTenant } from '../../support/agents.ts';
import { agents, dailyPlanet, publishAdagents } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import {
  accessToken,
  bearer,
  createApiKeyFor,
  followAuthorization,
  REDIRECT_URI,
  seedOrganization,
  seedUser,
  type SeededUser,
} from '../../support/identity.ts';
import { callProtected, postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

type Json = Record<string, unknown>;

/** A tool call and the REST request it mirrors. */
interface Example {
  args: Json;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

const encoded = encodeURIComponent(agents.direct);

/** One example per tool (a tool without one fails the suite), each against the data `before` writes. */
const examples: Record<string, Example> = {
  resolve_brand: { args: { domain: 'acme.example' }, path: '/api/brands/resolve?domain=acme.example' },
  resolve_brands: {
    args: { domains: ['acme.example', 'unknown.example'] },
    method: 'POST',
    path: '/api/brands/resolve/bulk',
    body: { domains: ['acme.example', 'unknown.example'] },
  },
  list_brands: { args: { limit: 5 }, path: '/api/brands/registry?limit=5' },
  find_brands: { args: { q: 'acme', limit: 3 }, path: '/api/brands/find?q=acme&limit=3' },
  brand_history: { args: { domain: 'acme.example' }, path: '/api/brands/history?domain=acme.example' },
  resolve_property: { args: { domain: 'news.example' }, path: '/api/properties/resolve?domain=news.example' },
  resolve_properties: {
    args: { domains: ['news.example'] },
    method: 'POST',
    path: '/api/properties/resolve/bulk',
    body: { domains: ['news.example'] },
  },
  list_properties: { args: {}, path: '/api/properties/registry' },
  property_history: { args: { domain: 'news.example' }, path: '/api/properties/history?domain=news.example' },
  resolve_policy: {
    args: { policy_id: 'acme_brand_safety' },
    path: '/api/policies/resolve?policy_id=acme_brand_safety',
  },
  resolve_policies: {
    args: { policy_ids: ['acme_brand_safety', 'unknown_policy'] },
    method: 'POST',
    path: '/api/policies/resolve/bulk',
    body: { policy_ids: ['acme_brand_safety', 'unknown_policy'] },
  },
  list_policies: { args: { category: 'standard', limit: 5 }, path: '/api/policies/registry?category=standard&limit=5' },
  policy_history: {
    args: { policy_id: 'acme_brand_safety' },
    path: '/api/policies/history?policy_id=acme_brand_safety',
  },
  search: { args: { q: 'acme', limit: 3 }, path: '/api/search?q=acme&limit=3' },
  list_agents: {
    args: { capabilities: true, properties: true },
    path: '/api/registry/agents?capabilities=true&properties=true',
  },
  get_agent_compliance: {
    args: { url: 'https://sales.operator.ap.test/mcp' },
    path: `/api/registry/agents/${encodeURIComponent('https://sales.operator.ap.test/mcp')}/compliance`,
  },
  search_agents: {
    args: { channels: 'display,ctv', limit: 2 },
    path: '/api/registry/agents/search?channels=display%2Cctv&limit=2',
  },
  get_operator: { args: { domain: 'operator.ap.test' }, path: '/api/registry/operator?domain=operator.ap.test' },
  get_publisher: {
    args: { domain: 'dailyplanet.example' },
    path: '/api/registry/publisher?domain=dailyplanet.example',
  },
  list_publishers: { args: { q: 'planet', limit: 5 }, path: '/api/registry/publishers?q=planet&limit=5' },
  get_stats: { args: {}, path: '/api/registry/stats' },
  lookup_domain: { args: { domain: 'dailyplanet.example' }, path: '/api/registry/lookup/domain/dailyplanet.example' },
  lookup_property: {
    args: { identifier_type: 'ios_bundle', identifier_value: 'com.dailyplanet.app' },
    path: '/api/registry/lookup/property?identifier_type=ios_bundle&identifier_value=com.dailyplanet.app',
  },
  lookup_agent_domains: {
    args: { agentUrl: agents.direct, limit: 10 },
    path: `/api/registry/lookup/agent/${encoded}/domains?limit=10`,
  },
  lookup_manifest_refs: {
    args: { domain: 'dailyplanet.example' },
    path: '/api/manifest-refs/lookup?domain=dailyplanet.example',
  },
  check_property_authorization: {
    args: {
      agent_url: agents.direct,
      identifier_type: 'domain',
      identifier_value: 'dailyplanet.example',
      delegation_type: 'direct',
    },
    path: `/api/registry/validate/property-authorization?agent_url=${encoded}&identifier_type=domain&identifier_value=dailyplanet.example&delegation_type=direct`,
  },
  check_property_authorizations: {
    args: {
      checks: [
        { agent_url: agents.adnet, identifier: { type: 'ios_bundle', value: 'com.dailyplanet.app' } },
        { agent_url: agents.direct, publisher_domain: 'dailyplanet.example', property_id: 'ctv' },
      ],
    },
    method: 'POST',
    path: '/api/registry/validate/property-authorization',
    body: {
      checks: [
        { agent_url: agents.adnet, identifier: { type: 'ios_bundle', value: 'com.dailyplanet.app' } },
        { agent_url: agents.direct, publisher_domain: 'dailyplanet.example', property_id: 'ctv' },
      ],
    },
  },
  validate_product_authorization: {
    args: {
      agent_url: agents.direct,
      publisher_properties: [{ selection_type: 'all', publisher_domain: 'dailyplanet.example' }],
    },
    method: 'POST',
    path: '/api/registry/validate/product-authorization',
    body: {
      agent_url: agents.direct,
      publisher_properties: [{ selection_type: 'all', publisher_domain: 'dailyplanet.example' }],
    },
  },
  expand_product_identifiers: {
    args: {
      publisher_properties: [
        { selection_type: 'by_tag', publisher_domain: 'dailyplanet.example', property_tags: ['news'] },
      ],
    },
    method: 'POST',
    path: '/api/registry/expand/product-identifiers',
    body: {
      publisher_properties: [
        { selection_type: 'by_tag', publisher_domain: 'dailyplanet.example', property_tags: ['news'] },
      ],
    },
  },
  get_feed: {
    args: { limit: 3, types: 'property.*,authorization.*' },
    path: '/api/registry/feed?limit=3&types=property.*%2Cauthorization.*',
  },
};

/** What MCP answers for a tool call: the tool result as the SDK client reads it. */
interface ToolAnswer {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Json;
  isError?: boolean;
}

/**
 * A client's OAuth side as the SDK asks for it: registered dynamically, the authorization URL kept
 * for the test to walk like the user's browser, tokens and the PKCE verifier held in memory.
 */
class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'MCP test client',
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}

eachEngine('the registry over MCP', (engine) => {
  let server: TestServer;
  let client: Client;
  // Frozen, so the feed's `generated_at` is the same for the tool and the route.
  const clock = new ManualClock();

  const rest = async (example: Omit<Example, 'args'>, headers: Record<string, string> = asAdmin) => {
    const res = await fetch(`${server.url}${example.path}`, {
      method: example.method ?? 'GET',
      headers: { ...headers, ...(example.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: example.body === undefined ? undefined : JSON.stringify(example.body),
    });
    return { status: res.status, text: await res.text() };
  };
  const call = async (name: string, args: Json, via = client) =>
    (await via.callTool({ name, arguments: args })) as ToolAnswer;

  before(async () => {
    // An agent beside the registry, whose tokens the registry must refuse.
    server = await startTestServer(engine, {
      deps: { clock, tenants: [testTenant().tenant] },
      env: { TRUST_PROXY: '127.0.0.1' },
    });
    assert.equal(
      (await postJson(`${server.url}/api/brands/save`, { domain: 'acme.example', brand_name: 'Acme' })).status,
      201,
    );
    assert.equal(
      (
        await postJson(`${server.url}/api/properties/save`, {
          publisher_domain: 'news.example',
          authorized_agents: [{ url: 'https://agent.sellers.example/ap' }],
        })
      ).status,
      201,
    );
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
    const policy = {
      policy_id: 'acme_brand_safety',
      version: '1.0.0',
      name: 'Acme Brand Safety',
      category: 'standard',
      enforcement: 'should',
      policy: 'No ads next to violent content.',
    };
    assert.equal((await postJson(`${server.url}/api/policies/save`, policy)).status, 201);
    await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet());
    await server.app.authorizationIndex.until((f) => f.index.publisher('dailyplanet.example') !== undefined);
    await server.app.registrySummary.refresh();
    client = await mcpClient(server.url, '');
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  describe('tools', () => {
    it('lists one tool per read route, each with the route’s parameters as its input schema', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        registryTools.map((t) => t.name),
      );
      assert.deepEqual(
        Object.keys(examples).sort(),
        registryTools.map((t) => t.name).sort(),
        'every tool has an example below',
      );
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        assert.ok(tool.description && tool.description.length > 20, tool.name);
        assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
        assert.ok(!JSON.stringify(tool.inputSchema).includes('$ref'), `${tool.name}'s schema stands alone`);
      }
      const byName = new Map(tools.map((t) => [t.name, t]));
      assert.deepEqual(byName.get('resolve_brand')!.inputSchema.required, ['domain']);
      assert.deepEqual(byName.get('lookup_domain')!.inputSchema.required, ['domain']);
      assert.deepEqual(byName.get('lookup_agent_domains')!.inputSchema.required, ['agentUrl']);
      assert.ok(
        byName.get('lookup_agent_domains')!.inputSchema.properties?.['limit'],
        'path parameters and query string together',
      );
      assert.deepEqual(byName.get('resolve_brands')!.inputSchema.required, ['domains']);
      assert.match(
        byName.get('check_property_authorization')!.description!,
        /GET \/api\/registry\/validate\/property-authorization/,
      );
    });

    for (const [name, example] of Object.entries(examples)) {
      it(`${name} answers exactly what ${example.method ?? 'GET'} ${example.path.split('?')[0]} answers`, async () => {
        const expected = await rest(example);
        assert.equal(
          expected.status,
          200,
          `${name}: the REST example itself answers ${expected.status} ${expected.text}`,
        );
        const answer = await call(name, example.args);
        assert.equal(answer.isError, undefined, JSON.stringify(answer));
        assert.equal(answer.content[0]!.text, expected.text, 'the text is the route’s body');
        assert.deepEqual(answer.structuredContent, JSON.parse(expected.text));
      });
    }

    it('answers from the data as it is now (the tool and the route agree after a change)', async () => {
      assert.equal(
        (await postJson(`${server.url}/api/brands/save`, { domain: 'later.example', brand_name: 'Later' })).status,
        201,
      );
      const answer = await call('resolve_brand', { domain: 'later.example' });
      assert.equal(answer.structuredContent?.['brand_name'], 'Later');
    });
  });

  describe('errors', () => {
    const refusals: Array<[string, string, Json, Omit<Example, 'args'>]> = [
      ['a missing required parameter', 'resolve_brand', {}, { path: '/api/brands/resolve' }],
      [
        'an invalid domain',
        'get_publisher',
        { domain: 'not a domain' },
        { path: '/api/registry/publisher?domain=not%20a%20domain' },
      ],
      [
        'an unknown publisher',
        'get_publisher',
        { domain: 'nowhere.example' },
        { path: '/api/registry/publisher?domain=nowhere.example' },
      ],
      ['a wrong type', 'search', { q: 'acme', limit: 'many' }, { path: '/api/search?q=acme&limit=many' }],
      [
        'an expired feed cursor',
        'get_feed',
        { cursor: '00000000-0000-7000-8000-000000000000' },
        { path: '/api/registry/feed?cursor=00000000-0000-7000-8000-000000000000' },
      ],
      [
        'a malformed bulk body',
        'resolve_brands',
        { domains: 'acme.example' },
        { method: 'POST', path: '/api/brands/resolve/bulk', body: { domains: 'acme.example' } },
      ],
    ];
    for (const [what, name, args, example] of refusals) {
      it(`answers ${what} with a tool error carrying the route’s error body`, async () => {
        const expected = await rest(example);
        assert.ok(expected.status >= 400, `${what}: the route answers ${expected.status}`);
        const answer = await call(name, args);
        assert.equal(answer.isError, true);
        assert.equal(answer.content[0]!.text, expected.text);
        assert.deepEqual(answer.structuredContent, JSON.parse(expected.text));
      });
    }

    it('answers a missing path parameter, or one that would leave its route (. or ..), as the catalogue’s validation_failed', async () => {
      for (const args of [{}, { domain: '..' }, { domain: '.' }]) {
        const answer = await call('lookup_domain', args);
        assert.equal(answer.isError, true);
        assert.deepEqual(answer.structuredContent, {
          error: 'validation_failed',
          message: 'Invalid params.domain: is required.',
          details: [{ in: 'params', field: 'domain', message: 'is required' }],
        });
      }
    });

    it('refuses a read tool’s arguments longer than any URL its route could be sent, as validation_failed', async () => {
      // As many members as a body may carry (256), each long enough that together they outrun a URL.
      const many = Object.fromEntries(Array.from({ length: 255 }, (_, i) => [`k${i}`, 'v'.repeat(80)]));
      for (const args of [{ domain: 'acme.example', ...many }, { domain: 'x'.repeat(20_000) }]) {
        const answer = await call('resolve_brand', args);
        assert.equal(answer.isError, true);
        assert.equal((answer.structuredContent as Json).error, 'validation_failed');
        assert.match(String((answer.structuredContent as Json).message), /longer than a URL may be \(16 KB\)/);
      }
    });

    it('answers an unknown tool with the JSON-RPC error for invalid params', async () => {
      await assert.rejects(
        call('no_such_tool', {}),
        (err: unknown) =>
          err instanceof McpError && err.code === ErrorCode.InvalidParams && /no_such_tool/.test(err.message),
      );
    });

    it('spends the caller’s own rate-limit budget, shared with the REST API, and answers 429 with retry_after', async () => {
      // Bulk resolves: 20 a minute per IP. A caller behind the trusted proxy (TRUST_PROXY) has an
      // address of its own; the tool's in-process request must spend that, not the server's loopback.
      const from = { 'x-forwarded-for': '203.0.113.7' };
      const proxied = await mcpClient(server.url, '', { ...asAdmin, ...from });
      try {
        const example = examples['resolve_brands']!;
        for (let i = 0; i < 20; i++)
          assert.equal((await call('resolve_brands', example.args, proxied)).isError, undefined, `call ${i + 1}`);
        const refused = await call('resolve_brands', example.args, proxied);
        assert.equal(refused.isError, true);
        assert.equal(refused.structuredContent?.['error'], 'rate_limited');
        assert.equal(typeof refused.structuredContent?.['retry_after'], 'number');
        assert.equal(
          (await rest(example, { ...asAdmin, ...from })).status,
          429,
          'the REST route sees the same budget spent',
        );
        assert.equal(
          (await call('resolve_brands', example.args)).isError,
          undefined,
          'another caller’s budget is untouched',
        );
      } finally {
        await proxied.close();
      }
    });
  });

  describe('credentials', () => {
    it('answers 401 without a credential, with a challenge naming the MCP endpoint’s metadata', async () => {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 401);
      const challenge = res.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer /);
      assert.ok(
        challenge.includes(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`),
        challenge,
      );
      assert.equal(((await res.json()) as Json).error, 'unauthorized');
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as Json;
      assert.equal(metadata.resource, `${server.url}/mcp`);
      assert.deepEqual(metadata.authorization_servers, [server.url]);
    });

    it('answers 401 invalid_token to a credential it does not know', async () => {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-credential' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    });

    it('refuses a foreign Host or a browser Origin it was not told to allow (DNS rebinding)', async () => {
      // fetch() will not send a Host of our choosing; a raw request will.
      const status = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            `${server.url}/mcp`,
            { method: 'POST', headers: { 'content-type': 'application/json', ...asAdmin, ...headers } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
        });
      assert.equal(await status({}), 200);
      assert.equal(await status({ host: 'attacker.example' }), 403);
      assert.equal(await status({ origin: 'https://attacker.example' }), 403);
    });

    it('takes an organization API key, and a route needing a credential answers as the REST API does for that key', async () => {
      const org = await seedOrganization(server.db);
      const key = await createApiKeyFor(server.db, org.slug);
      const keyed = await mcpClient(server.url, '', bearer(key));
      try {
        const example = examples['search_agents']!;
        const expected = await rest(example, bearer(key));
        assert.equal(expected.status, 200);
        const answer = await call('search_agents', example.args, keyed);
        assert.deepEqual(answer.structuredContent, JSON.parse(expected.text));
      } finally {
        await keyed.close();
      }
    });

    describe('OAuth through the embedded authorization server', () => {
      let alice: SeededUser;
      before(async () => {
        const org = await seedOrganization(server.db);
        alice = await seedUser(server.db, { organization: org.slug });
      });

      it('the SDK client registers, authorizes with PKCE and calls tools; the same token works on the REST API', async () => {
        const provider = new MemoryOAuthProvider();
        const endpoint = new URL(`${server.url}/mcp`);
        const first = new Client({ name: 'ap-test', version: '1.0.0' });
        // The 401's challenge leads the client to the metadata, dynamic registration and the authorization URL.
        await assert.rejects(
          first.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider })),
          UnauthorizedError,
        );
        assert.ok(provider.clientInformation()?.client_id, 'registered at /register');
        const authorization = provider.authorizationUrl!;
        assert.equal(authorization.origin + authorization.pathname, `${server.url}/authorize`);
        assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
        assert.equal(authorization.searchParams.get('resource'), `${server.url}/mcp`);
        const back = await followAuthorization(server.url, authorization.href, alice);
        const code = back.searchParams.get('code');
        assert.ok(code, `authorization refused: ${back}`);
        const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
        await transport.finishAuth(code);

        const token = provider.tokens()!.access_token;
        const claims = decodeJwt(token);
        assert.equal(claims.aud, `${server.url}/mcp`, 'a token for the MCP resource');
        assert.equal(claims.sub, alice.user.id);

        const oauthed = new Client({ name: 'ap-test', version: '1.0.0' });
        await oauthed.connect(transport);
        try {
          const example = examples['search_agents']!;
          const answer = await call('search_agents', example.args, oauthed);
          assert.equal(answer.isError, undefined, JSON.stringify(answer));
          // The same token on the REST API: a credential-required read and a write acting for the organization.
          const expected = await rest(example, bearer(token));
          assert.equal(expected.status, 200, expected.text);
          assert.deepEqual(answer.structuredContent, JSON.parse(expected.text));
          assert.equal((await callProtected(server.url, bearer(token))).status, 201);
        } finally {
          await oauthed.close();
        }
      });

      it('refuses a token meant for an agent served beside it', async () => {
        const token = await accessToken(server.url, alice, `${server.url}/test/mcp`);
        const res = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(token) },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        assert.equal(res.status, 401);
        assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      });

      it('takes a token the client asked for the REST API too (one token for both)', async () => {
        const token = await accessToken(server.url, alice);
        assert.equal(decodeJwt(token).aud, `${server.url}/api`);
        const apiClient = await mcpClient(server.url, '', bearer(token));
        try {
          assert.equal((await call('get_stats', {}, apiClient)).isError, undefined);
        } finally {
          await apiClient.close();
        }
      });
    });
  });
});
