import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { accessToken, bearer, proveOwnership, seedOrganization, seedUser } from '../support/identity.ts';
import { callProtected, postJson } from '../support/requests.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

eachEngine('OAuth 2.1 flow', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  describe('the whole flow with a real HTTP client', () => {
    it('registers, authorizes with PKCE, exchanges the code and calls a protected endpoint', async () => {
      const org = await seedOrganization(server.db);
      const alice = await seedUser(server.db, { organization: org.slug });
      const token = await accessToken(server.url, alice);
      await proveOwnership(server.db, org.slug, 'oauth-flow.example');
      const res = await postJson(
        `${server.url}/api/brands/save`,
        { domain: 'oauth-flow.example', brand_name: 'OAuth Flow' },
        bearer(token),
      );
      assert.equal(res.status, 201, JSON.stringify(await json(res.clone())));
    });
  });

  describe('one token for the REST API, whichever resource the client asked for', () => {
    // RFC 8707: a client may name the resource it wants a token for; naming none gets the REST API.
    for (const [label, resource, audience] of [
      ['the REST API', '/api', '/api'],
      ['the MCP endpoint', '/mcp', '/mcp'],
      ['no resource', undefined, '/api'],
    ] as const) {
      it(`accepts a token issued for ${label}`, async () => {
        const org = await seedOrganization(server.db);
        const bob = await seedUser(server.db, { organization: org.slug });
        const token = await accessToken(server.url, bob, resource && `${server.url}${resource}`);
        assert.equal(decodeProtectedHeader(token).typ, 'at+jwt');
        const claims = decodeJwt(token);
        assert.equal(claims.iss, server.url);
        assert.equal(claims.aud, `${server.url}${audience}`);
        assert.equal(claims.sub, bob.user.id);
        const res = await callProtected(server.url, bearer(token));
        assert.equal(res.status, 201, JSON.stringify(await json(res.clone())));
      });
    }
  });
});
