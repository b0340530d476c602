import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

eachEngine('CORS', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine, {
      extend: (app) => {
        app.get('/probe/private', { config: { auth: 'required' } }, async () => ({ secret: true }));
      },
    });
  });
  after(() => server.close());

  const origin = { origin: 'https://buyer.example' };

  it('lets any page read public GET endpoints', async () => {
    const res = await fetch(`${server.url}/healthz`, { headers: origin });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  it('answers preflight for reads only', async () => {
    const res = await fetch(`${server.url}/healthz`, {
      method: 'OPTIONS',
      headers: { ...origin, 'access-control-request-method': 'GET' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET, HEAD');
  });

  it('does not offer credential-required endpoints cross-origin', async () => {
    const res = await fetch(`${server.url}/probe/private`, { headers: origin });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});
