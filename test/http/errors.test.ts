import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../src/db/database.ts';
import { maxPathParamLength } from '../../src/http/errors.ts';
import { ApError } from '../../src/protocol/errors.ts';
import { eachEngine } from '../support/engines.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { json } from '../support/http.ts';

/**
 * The error contract, seen from a client: every failure has the catalogue's status and body, and a
 * rejected write changes nothing. A probe route that writes a row stands in for the JSON writes the
 * capabilities add; it is registered only in this test's app.
 */
eachEngine('error responses', (engine) => {
  let server: TestServer;
  const rowCount = async () =>
    (await server.db.query<{ n: number }>('select count(*)::int as n from probe_writes'))[0]!.n;

  before(async () => {
    server = await startTestServer(engine, { env: { BODY_LIMIT_BYTES: '1024' }, extend: addProbes });
  });
  after(() => server.close());

  async function addProbes(app: FastifyInstance, db: Database) {
    await db.query('create table probe_writes (id serial primary key, domain text not null)');
    app.post(
      '/probe/writes',
      {
        schema: {
          body: Type.Object(
            { domain: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer({ minimum: 1 })) },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const { domain } = request.body as { domain: string };
        await db.query('insert into probe_writes (domain) values ($1)', [domain]);
        return reply.code(201).send({ ok: true });
      },
    );
    app.get('/probe/crash', async () => {
      throw new Error('secret detail: connection to 10.0.0.7 failed at /srv/app/db.ts:42');
    });
    app.get('/probe/limited', async () => {
      throw new ApError('rate_limited', 'Too many requests from this address.', { retryAfter: 42 });
    });
    app.get('/probe/expired', async () => {
      throw new ApError('cursor_expired');
    });
    app.get('/probe/items/:id', async () => ({ ok: true }));
  }

  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${server.url}/probe/writes`, { method: 'POST', body, headers });

  it('accepts a well-formed JSON write (the probe works)', async () => {
    const res = await post('{"domain":"example.com"}', { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(res.status, 201);
    assert.equal(await rowCount(), 1);
  });

  it('answers malformed JSON with 400 invalid_json and writes nothing', async () => {
    const res = await post('{"domain": "example.com",', { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await json(res);
    assert.equal(body.error, 'invalid_json');
    assert.equal(typeof body.message, 'string');
    assert.equal(await rowCount(), 1);
  });

  it('answers an empty JSON body and a prototype-poisoning body with 400 invalid_json', async () => {
    for (const payload of ['', '{"domain":"x.com","__proto__":{"admin":true}}']) {
      const res = await post(payload, { 'content-type': 'application/json' });
      assert.equal(res.status, 400, payload);
      assert.equal((await json(res)).error, 'invalid_json');
    }
    assert.equal(await rowCount(), 1);
  });

  it('answers a wrong or missing content type with 415 and writes nothing', async () => {
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      {},
    ] as Record<string, string>[]) {
      const res = await post('{"domain":"example.com"}', headers);
      assert.equal(res.status, 415, JSON.stringify(headers));
      assert.deepEqual(await json(res), {
        error: 'unsupported_media_type',
        message: 'The request body must be sent as Content-Type: application/json.',
      });
    }
    assert.equal(await rowCount(), 1);
  });

  it('answers an oversized body with 413 and writes nothing', async () => {
    const res = await post(JSON.stringify({ domain: 'x'.repeat(5000) }), { 'content-type': 'application/json' });
    assert.equal(res.status, 413);
    assert.deepEqual(await json(res), { error: 'payload_too_large', message: 'The request body is too large.' });
    assert.equal(await rowCount(), 1);
  });

  it('answers a schema violation with 400 validation_failed naming the fields', async () => {
    const res = await post('{"count":0}', { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    const body = await json(res);
    assert.equal(body.error, 'validation_failed');
    assert.match(body.message, /body\.domain/);
    assert.deepEqual(body.details[0], { in: 'body', field: 'domain', message: "must have required property 'domain'" });
    const extra = await json(await post('{"domain":"a.com","admin":true}', { 'content-type': 'application/json' }));
    assert.deepEqual(
      extra.details.map((d: { field: string }) => d.field),
      ['admin'],
    );
    assert.equal(await rowCount(), 1);
  });

  it('answers an unknown route with 404 route_not_found, which an unknown entity (not_found) is not', async () => {
    const res = await fetch(`${server.url}/api/nothing-here?x=1`);
    assert.equal(res.status, 404);
    assert.deepEqual(await json(res), { error: 'route_not_found', message: 'No route for GET /api/nothing-here.' });
  });

  it('answers a URL the router cannot decode, or a path segment over its limit, with 400 invalid_request', async () => {
    assert.equal((await fetch(`${server.url}/probe/items/x`)).status, 200, 'the probe route answers');
    for (const [path, message] of [
      ['/probe/items/%ZZ', 'The request URL is malformed.'],
      ['/probe/items/%ED%A0%80', 'The request URL is malformed.'],
      [`/probe/items/${'x'.repeat(maxPathParamLength + 1)}`, 'A path segment of the request URL is too long.'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 400, path);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await json(res), { error: 'invalid_request', message }, path);
    }
  });

  it('answers a request line or headers over the size limit with 431 headers_too_large', async () => {
    for (const init of [
      { path: `/probe/items/x?q=${'a'.repeat(20_000)}` },
      { path: '/probe/items/x', headers: { 'x-filler': 'a'.repeat(20_000) } },
    ]) {
      const res = await fetch(`${server.url}${init.path}`, { headers: init.headers ?? {} });
      assert.equal(res.status, 431);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await json(res), {
        error: 'headers_too_large',
        message: 'The request line or headers are too large (the query string included).',
      });
    }
  });

  it('answers an unexpected failure with 500 and no internals', async () => {
    const res = await fetch(`${server.url}/probe/crash`);
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { error: 'internal_error', message: 'Internal server error.' });
    assert.doesNotMatch(text, /secret|10\.0\.0\.7|db\.ts|at /);
  });

  it('answers 429 with retry_after and a Retry-After header', async () => {
    const res = await fetch(`${server.url}/probe/limited`);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '42');
    assert.deepEqual(await json(res), {
      error: 'rate_limited',
      message: 'Too many requests from this address.',
      retry_after: 42,
    });
  });

  it('answers 410 with cursor_expired', async () => {
    const res = await fetch(`${server.url}/probe/expired`);
    assert.equal(res.status, 410);
    const body = await json(res);
    assert.equal(body.error, 'cursor_expired');
    assert.match(body.message, /re-bootstrap/);
  });

  it('gives every response a request id, keeping a well-formed one the caller sent', async () => {
    const own = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'trace-abc.123' } });
    assert.equal(own.headers.get('x-request-id'), 'trace-abc.123');
    const hostile = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'a'.repeat(500) } });
    assert.match(hostile.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const none = await fetch(`${server.url}/nowhere`);
    assert.match(none.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
