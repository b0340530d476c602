import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServingAp } from '../../support/cli.ts';
import { json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { openSharedSchema, type SharedSchema } from '../../support/shared-schema.ts';
import { isolatedRedis } from './support.ts';

const LIMIT = { RATE_LIMIT_BULK_RESOLVE_PER_MINUTE: '4' };
const KEY = 'resolve-bulk-brands:ip:127.0.0.1';

/** Alternates bulk resolves between the processes: four pass, the fifth and sixth get 429. */
async function exhaustAcross(a: ServingAp, b: ServingAp): Promise<void> {
  const bulk = (server: ServingAp) => postJson(`${server.url}/api/brands/resolve/bulk`, { domains: ['a.example'] }, {});
  for (const [i, server] of [a, b, a, b].entries()) {
    const res = await bulk(server);
    assert.equal(res.status, 200, `request ${i + 1}`);
    await res.arrayBuffer();
  }
  for (const server of [a, b]) {
    const res = await bulk(server);
    assert.equal(res.status, 429, 'past the limit on either process');
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
    assert.match(body.message, /4 requests per minute/);
  }
}

describe('[postgres] a rate limit holds across two ap serve processes sharing PostgreSQL', () => {
  let shared: SharedSchema;
  before(async () => {
    shared = await openSharedSchema();
  });
  after(() => shared.close());

  it('counts requests to either process against one budget, in the database', async () => {
    const [a, b] = await Promise.all([shared.serve(LIMIT), shared.serve(LIMIT)]);
    await exhaustAcross(a!, b!);
    assert.deepEqual(
      await shared.db.query(`select cardinality(hits) as n from rate_limit_log where key = $1`, [KEY]),
      [{ n: 4 }],
      'the four accepted requests',
    );
  });
});

describe('[postgres+redis] a rate limit holds across two ap serve processes sharing Redis', () => {
  let shared: SharedSchema;
  const redis = isolatedRedis();
  before(async () => {
    shared = await openSharedSchema();
  });
  after(async () => {
    await shared.close();
    await redis.cleanup();
  });

  it('counts requests to either process against one budget, in Redis', async () => {
    const env = { ...LIMIT, REDIS_URL: redis.url };
    const [a, b] = await Promise.all([shared.serve(env), shared.serve(env)]);
    await exhaustAcross(a!, b!);
    assert.equal(await redis.client().zcard(`${redis.prefix}ap:rate-log:${KEY}`), 4, 'the four accepted requests');
    assert.deepEqual(await shared.db.query(`select key from rate_limit_log`), [], 'nothing counted in the database');
  });
});
