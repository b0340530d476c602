import assert from 'node:assert/strict';
import type { Clock } from '../../../src/clock.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { buildWorld } from '../../support/authorization-world.ts';
import type { TestEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/** What the lookup suites share: a server over the authorization world, and how they read its answers. */

const AUTHORIZATION_RESULT = '/schemas/3.0.6/property/authorization-result.json';

/** A test server whose index holds the whole authorization world (on `clock`, when given). */
export async function startWorld(engine: TestEngine, clock?: Clock): Promise<TestServer> {
  const server = await startTestServer(engine, clock ? { deps: { clock } } : {});
  try {
    await buildWorld(server.db);
    await settled(server);
    return server;
  } catch (err) {
    await server.close();
    throw err;
  }
}

/** Resolves once the index has applied every event written so far. */
export async function settled(server: TestServer): Promise<void> {
  const [head] = await server.db.query<{ event_id: string }>(
    'select event_id from registry_events order by event_id desc limit 1',
  );
  assert.ok(head, 'the feed has events');
  await server.app.authorizationIndex.reached(head.event_id);
}

/** The real-time check by query parameters. */
export function check(server: TestServer, query: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/api/registry/validate/property-authorization?${new URLSearchParams(query)}`);
}

/** A check that answers 200, its `result` valid against property/authorization-result.json. */
export async function checked(server: TestServer, query: Record<string, string>): Promise<Json> {
  const res = await check(server, query);
  assert.equal(res.status, 200, JSON.stringify(query));
  const body = await json(res);
  assertAuthorizationResult(body.result);
  return body;
}

export function assertAuthorizationResult(result: unknown): void {
  const validation = validateSchema(AUTHORIZATION_RESULT, result);
  assert.deepEqual(validation.errors, [], JSON.stringify(result));
  assert.equal(validation.valid, true);
}

/** A catalogue error body: `{error, message}` and, when fields are named, `details` naming `field` in `where`. */
export async function assertRejected(
  res: Response,
  expected: { status?: number; error: string; in?: string; field?: string },
): Promise<Json> {
  const body = await json(res);
  assert.equal(res.status, expected.status ?? 400, JSON.stringify(body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(body.error, expected.error, JSON.stringify(body));
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
  assert.deepEqual(
    Object.keys(body).filter((k) => !['error', 'message', 'details'].includes(k)),
    [],
  );
  if (expected.field !== undefined) {
    assert.ok(
      body.details.some(
        (d: Json) => d.field === expected.field && d.in === expected.in && typeof d.message === 'string',
      ),
      `details name ${expected.in}.${expected.field}: ${JSON.stringify(body)}`,
    );
  }
  return body;
}

export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
