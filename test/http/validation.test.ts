import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { postJson } from '../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../support/server.ts';

/** What every refusal of a NUL character looks like: 400 validation_failed naming the field. */
async function assertNulRefused(res: Response, part: string, field: string): Promise<void> {
  assert.equal(res.status, 400);
  assert.deepEqual(await json(res), {
    error: 'validation_failed',
    message: `Invalid ${part}.${field}: must not contain the NUL character (U+0000).`,
    details: [{ in: part, field, message: 'must not contain the NUL character (U+0000)' }],
  });
}

eachEngine('a NUL character anywhere in a request', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('400 in the q of every search, never 500', async () => {
    for (const path of ['/api/search', '/api/brands/registry', '/api/properties/registry']) {
      for (const q of ['%00', 'ac%00me', '%00%00%00']) {
        const res = await fetch(`${server.url}${path}?q=${q}`, { headers: asAdmin });
        await assertNulRefused(res, 'querystring', 'q');
      }
    }
  });

  it('400 in any saved text field, at any depth or in a key, and nothing is written', async () => {
    const events = async () => (await server.db.query(`select count(*)::int as n from registry_events`))[0]!.n as number;
    const before = await events();
    const cases: Array<[string, unknown, string]> = [
      ['/api/brands/save', { domain: 'nul.example', brand_name: 'Acme\u0000' }, 'brand_name'],
      ['/api/brands/save', { domain: 'nul.example', brand_name: 'Acme', brand_manifest: { name: 'Acme', colors: { primary: '\u0000' } } }, 'brand_manifest.colors.primary'],
      ['/api/brands/save', { domain: 'nul.example', brand_name: 'Acme', brand_manifest: { 'na\u0000me': 'Acme' } }, 'brand_manifest.na\u0000me'],
      ['/api/brands/save', { domain: 'nul\u0000.example', brand_name: 'Acme' }, 'domain'],
      ['/api/properties/save', { publisher_domain: 'nul.example', authorized_agents: [], properties: [{ type: 'website', name: 'Site\u0000' }] }, 'properties.0.name'],
    ];
    for (const [path, body, field] of cases) await assertNulRefused(await postJson(`${server.url}${path}`, body), 'body', field);
    assert.deepEqual(await server.db.query(`select domain from brands where domain like 'nul%'`), []);
    assert.deepEqual(await server.db.query(`select publisher_domain from properties where publisher_domain like 'nul%'`), []);
    assert.equal(await events(), before);
    // The same saves without the NUL go through.
    assert.equal((await postJson(`${server.url}/api/brands/save`, { domain: 'nul.example', brand_name: 'Acme' })).status, 201);
  });

  it('400 in a path parameter', async () => {
    const res = await fetch(`${server.url}/api/admin/reviews/ab%00cd/decision`, { method: 'POST', headers: { ...asAdmin, 'content-type': 'application/json' }, body: '{"decision":"approve"}' });
    await assertNulRefused(res, 'params', 'id');
  });
});

eachEngine('a NUL character hidden where the hook cannot see it', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('400 invalid_cursor for a listing cursor that decodes to a NUL, never 500', async () => {
    const cursor = Buffer.from(JSON.stringify({ domain: '\u0000' })).toString('base64url');
    for (const path of ['/api/brands/registry', '/api/properties/registry']) {
      const res = await fetch(`${server.url}${path}?cursor=${cursor}`);
      assert.equal(res.status, 400, path);
      assert.equal((await json(res)).error, 'invalid_cursor');
    }
  });

  it('a client id with a NUL at the OAuth token endpoint is an unknown client, not a 500', async () => {
    const res = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=ab%00cd&client_secret=x',
    });
    assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
    assert.equal((await json(res)).error, 'invalid_client');
  });

  it('400 for a history offset beyond any page, never 500', async () => {
    const res = await fetch(`${server.url}/api/brands/history?domain=acme.example&offset=10000000000000000000`);
    assert.equal(res.status, 400);
    assert.equal((await json(res)).error, 'validation_failed');
  });
});
