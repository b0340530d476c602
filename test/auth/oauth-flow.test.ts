import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { accessToken, bearer, seedOrganization, seedUser } from '../support/identity.ts';
import { postJson } from '../support/requests.ts';
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
      const res = await postJson(`${server.url}/api/brands/save`, { domain: 'oauth-flow.example', brand_name: 'OAuth Flow' }, bearer(token));
      assert.equal(res.status, 201, JSON.stringify(await json(res.clone())));
    });
  });
});
