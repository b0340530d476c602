import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { json, type Json } from '../support/http.ts';
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
    const events = async () =>
      (await server.db.query(`select count(*)::int as n from registry_events`))[0]!.n as number;
    const before = await events();
    const cases: Array<[string, unknown, string]> = [
      ['/api/brands/save', { domain: 'nul.example', brand_name: 'Acme\u0000' }, 'brand_name'],
      [
        '/api/brands/save',
        { domain: 'nul.example', brand_name: 'Acme', brand_manifest: { name: 'Acme', colors: { primary: '\u0000' } } },
        'brand_manifest.colors.primary',
      ],
      [
        '/api/brands/save',
        { domain: 'nul.example', brand_name: 'Acme', brand_manifest: { 'na\u0000me': 'Acme' } },
        'brand_manifest.na\u0000me',
      ],
      ['/api/brands/save', { domain: 'nul\u0000.example', brand_name: 'Acme' }, 'domain'],
      [
        '/api/properties/save',
        {
          publisher_domain: 'nul.example',
          authorized_agents: [],
          properties: [{ type: 'website', name: 'Site\u0000' }],
        },
        'properties.0.name',
      ],
    ];
    for (const [path, body, field] of cases)
      await assertNulRefused(await postJson(`${server.url}${path}`, body), 'body', field);
    assert.deepEqual(await server.db.query(`select domain from brands where domain like 'nul%'`), []);
    assert.deepEqual(
      await server.db.query(`select publisher_domain from properties where publisher_domain like 'nul%'`),
      [],
    );
    assert.equal(await events(), before);
    // The same saves without the NUL go through.
    assert.equal(
      (await postJson(`${server.url}/api/brands/save`, { domain: 'nul.example', brand_name: 'Acme' })).status,
      201,
    );
  });

  it('400 in a path parameter', async () => {
    const res = await fetch(`${server.url}/api/admin/reviews/ab%00cd/decision`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: '{"decision":"approve"}',
    });
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

/** A registry `/mcp` tools/call sent as raw JSON text, so it can carry what JSON.stringify never writes (1e999). */
async function mcpCall(base: string, text: string): Promise<Json> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...asAdmin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: text,
  });
  assert.equal(res.status, 200);
  const answer = JSON.parse((await res.text()).replace(/^event: message\ndata: /, '')) as Json;
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  return answer.result as Json;
}

eachEngine('numbers in a query string are finite', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  const lists = [
    '/api/registry/feed',
    '/api/search?q=acme',
    '/api/brands/registry',
    '/api/properties/registry',
    '/api/policies/registry',
    '/api/registry/agents',
    '/api/admin/reviews',
    '/api/registry/snapshot',
    '/api/registry/catalog',
    '/api/registry/catalog/collections/sync',
  ];

  it('400 validation_failed naming limit for ±Infinity and 1e999 on every list, never 500', async () => {
    for (const path of lists) {
      for (const limit of ['Infinity', '-Infinity', '1e999', '-1e999']) {
        const res = await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}limit=${limit}`, {
          headers: asAdmin,
        });
        assert.equal(res.status, 400, `${path} limit=${limit}`);
        const body = await json(res);
        assert.equal(body.error, 'validation_failed');
        assert.deepEqual(body.details, [{ in: 'querystring', field: 'limit', message: 'must be a finite number' }]);
      }
      assert.equal(
        (await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}limit=5`, { headers: asAdmin })).status,
        200,
        path,
      );
    }
  });

  it('the same through /mcp, as the route answers it', async () => {
    const result = await mcpCall(
      server.url,
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_feed","arguments":{"limit":1e999}}}',
    );
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as Json).error, 'validation_failed');
  });
});

eachEngine('a lone UTF-16 surrogate anywhere in a request', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('400 validation_failed in a saved field, and nothing is written', async () => {
    const res = await postJson(`${server.url}/api/brands/save`, { domain: 'lone.example', brand_name: 'Acme \ud800' });
    assert.equal(res.status, 400);
    assert.deepEqual((await json(res)).details, [
      {
        in: 'body',
        field: 'brand_name',
        message: 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)',
      },
    ]);
    assert.deepEqual(await server.db.query(`select domain from brands where domain = 'lone.example'`), []);
  });

  it('a /mcp path argument answers the route’s 400 as a tool error, not JSON-RPC -32603', async () => {
    const result = await mcpCall(
      server.url,
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_domain","arguments":{"domain":"\\ud800"}}}',
    );
    assert.equal(result.isError, true);
    assert.deepEqual((result.structuredContent as Json).details, [
      { in: 'params', field: 'domain', message: 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)' },
    ]);
  });
});
