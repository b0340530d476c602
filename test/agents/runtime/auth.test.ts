import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Tenant } from '../../../src/agents/runtime/index.ts';
import { mcpClient } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import {
  accessToken,
  bearer,
  createApiKeyFor,
  seedOrganization,
  seedUser,
  type SeededUser,
} from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const PARTNER_TOKEN = 'partner-token-0123456789abcdef';

/** An agent whose one task answers who called it. */
function agent(name: string, credentials: Tenant['credentials'] = []): Tenant {
  return {
    name,
    path: `/${name}`,
    description: `The ${name} agent.`,
    protocols: ['media_buy'],
    credentials,
    tasks: [
      {
        name: 'whoami',
        description: 'Answers the caller’s principal.',
        input: { type: 'object' },
        mutates: false,
        handler: async (_args, ctx) => ({
          kind: ctx.principal.kind,
          subject: ctx.principal.subject,
          organization: ctx.principal.organization?.slug ?? null,
        }),
      },
    ],
  };
}

/** A bare JSON-RPC `tools/call` of `whoami`, as a client with `headers` sends it. */
const callRaw = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });

eachEngine('who may call an agent', (engine) => {
  let server: TestServer;
  let org: { slug: string };
  let alice: SeededUser;
  const alpha = (base: string) => `${base}/alpha/mcp`;

  before(async () => {
    server = await startTestServer(engine, {
      deps: {
        tenants: [
          agent('alpha', [{ token: PARTNER_TOKEN, name: 'partner', organization: 'partner-org' }]),
          agent('beta'),
        ],
      },
    });
    org = await seedOrganization(server.db);
    await seedOrganization(server.db, { slug: 'partner-org' });
    alice = await seedUser(server.db, { organization: org.slug });
  });
  after(() => server.close());

  /** `whoami` through the official MCP SDK client sending `headers`. */
  const whoami = async (headers: Record<string, string>, path = '/alpha') => {
    const client = await mcpClient(server.url, path, headers);
    try {
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as Json;
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const { status, ...caller } = result.structuredContent as Json;
      assert.equal(status, 'completed');
      return caller;
    } finally {
      await client.close();
    }
  };

  const assertRefused = async (res: Response, metadata: string, error?: string) => {
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer /);
    assert.ok(challenge.includes(`resource_metadata="${metadata}"`), challenge);
    if (error) assert.ok(challenge.includes(`error="${error}"`), challenge);
    else assert.ok(!challenge.includes('error='), challenge);
  };

  describe('credentials accepted', () => {
    it('accepts an organization API key', async () => {
      const key = await createApiKeyFor(server.db, org.slug);
      const caller = await whoami(bearer(key));
      assert.equal(caller.kind, 'api_key');
      assert.equal(caller.organization, org.slug);
    });

    it('accepts an access token the registry issued for this agent (resource = the agent’s URL)', async () => {
      const token = await accessToken(server.url, alice, alpha(server.url));
      assert.deepEqual(await whoami(bearer(token)), { kind: 'user', subject: alice.user.id, organization: org.slug });
    });

    it('accepts the agent’s configured token, acting for its organization', async () => {
      assert.deepEqual(await whoami(bearer(PARTNER_TOKEN)), {
        kind: 'credential',
        subject: 'alpha/partner',
        organization: 'partner-org',
      });
    });
  });

  describe('credentials refused', () => {
    it('answers a call without a credential 401, the challenge naming the agent’s metadata', async () => {
      await assertRefused(
        await callRaw(alpha(server.url), {}),
        `${server.url}/.well-known/oauth-protected-resource/alpha/mcp`,
      );
      await assertRefused(
        await callRaw(`${server.url}/alpha/a2a`, {}),
        `${server.url}/.well-known/oauth-protected-resource/alpha/a2a`,
      );
    });

    it('refuses an access token for another agent, or for the registry’s API only (401 invalid_token)', async () => {
      const metadata = `${server.url}/.well-known/oauth-protected-resource/alpha/mcp`;
      const forBeta = await accessToken(server.url, alice, `${server.url}/beta/mcp`);
      assert.equal((await whoami(bearer(forBeta), '/beta')).kind, 'user', 'the token works where it is meant to');
      await assertRefused(await callRaw(alpha(server.url), bearer(forBeta)), metadata, 'invalid_token');
      const forApi = await accessToken(server.url, alice);
      await assertRefused(await callRaw(alpha(server.url), bearer(forApi)), metadata, 'invalid_token');
    });

    it('refuses another agent’s configured token, and the agent’s token on the registry’s API', async () => {
      await assertRefused(
        await callRaw(`${server.url}/beta/mcp`, bearer(PARTNER_TOKEN)),
        `${server.url}/.well-known/oauth-protected-resource/beta/mcp`,
        'invalid_token',
      );
      const res = await fetch(`${server.url}/api/ownership/challenges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(PARTNER_TOKEN) },
        body: '{"domain":"x.example"}',
      });
      assert.equal(res.status, 401);
    });

    it('refuses a token for an agent that is not served here at the authorization server', async () => {
      await assert.rejects(accessToken(server.url, alice, `${server.url}/gamma/mcp`), /invalid_target/);
    });
  });

  describe('protected-resource metadata', () => {
    it('serves each agent’s metadata with `resource` the exact agent URL (RFC 9728)', async () => {
      for (const endpoint of ['mcp', 'a2a']) {
        const res = await fetch(`${server.url}/.well-known/oauth-protected-resource/alpha/${endpoint}`);
        assert.equal(res.status, 200);
        const doc = await json(res);
        assert.equal(doc.resource, `${server.url}/alpha/${endpoint}`);
        assert.deepEqual(doc.authorization_servers, [server.url]);
        assert.deepEqual(doc.bearer_methods_supported, ['header']);
      }
    });
  });
});
