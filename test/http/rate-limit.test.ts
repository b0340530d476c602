import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerErrorRendering } from '../../src/http/errors.ts';
import { rateLimitCaller } from '../../src/auth/index.ts';
import type { CounterStore, Take } from '../../src/http/rate-limit/counter-store.ts';
import { enforceRateLimits } from '../../src/http/rate-limit/enforce.ts';
import type { RateLimitRule } from '../../src/http/rate-limit/rules.ts';
import { ManualClock } from '../support/clock.ts';
import { eachEngine, engines, type TestEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { postJson } from '../support/requests.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { isolatedRedis } from './rate-limit/support.ts';

/** A store that records what it is asked and answers what the test says: room for `max`, no window. */
class FakeStore implements CounterStore {
  readonly takes: { key: string; max: number; windowMs: number; nowMs: number }[] = [];
  readonly counts = new Map<string, number>();
  readonly givenBack: string[] = [];
  closed = false;
  retryAfterMs = 42_000;
  fail = false;
  async take(key: string, max: number, windowMs: number, nowMs: number): Promise<Take> {
    if (this.fail) throw new Error('store down');
    this.takes.push({ key, max, windowMs, nowMs });
    const count = this.counts.get(key) ?? 0;
    if (count >= max) return { taken: false, retryAfterMs: this.retryAfterMs };
    this.counts.set(key, count + 1);
    return { taken: true, slot: `${key}#${count + 1}` };
  }
  async giveBack(key: string, slot: string): Promise<void> {
    this.givenBack.push(slot);
    this.counts.set(key, this.counts.get(key)! - 1);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

async function appWith(
  store: CounterStore,
  rules: RateLimitRule[],
  clock = new ManualClock(),
): Promise<FastifyInstance> {
  const app = Fastify();
  enforceRateLimits(app, store, rateLimitCaller, clock);
  registerErrorRendering(app);
  // Stands in for the auth guard: a principal named by a header.
  app.addHook('onRequest', async (request) => {
    const who = request.headers['x-who'];
    if (typeof who === 'string') {
      request.principal = {
        kind: 'user',
        subject: who,
        displayName: who,
        organization: {
          organizationId: `org-of-${who}`,
          slug: 'o',
          role: 'member',
          apiTier: false,
          registryAdmin: false,
        },
      };
    }
  });
  app.post('/limited', { config: { rateLimit: rules } }, async (request, reply) => {
    // Stands in for a route that refuses some requests after the limits let them through.
    const refuse = request.headers['x-refuse'];
    return refuse ? reply.code(Number(refuse)).send({ refused: true }) : { ok: true };
  });
  app.get('/limited', { config: { rateLimit: rules } }, async () => ({ ok: true }));
  app.get('/free', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('rate-limit hook', () => {
  it('keys each rule by its name and subject, skipping rules without one', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [
      { name: 'by-ip', max: 10, windowSeconds: 60, by: 'ip' },
      { name: 'by-principal', max: 10, windowSeconds: 3600, by: 'principal' },
      { name: 'by-org', max: 10, windowSeconds: 3600, by: 'organization' },
      { name: 'by-domain', max: 10, windowSeconds: 300, by: 'domain' },
      { name: 'by-fn', max: 10, windowSeconds: 5, by: (request) => request.headers['x-tenant'] as string | undefined },
    ]);
    try {
      await app.inject({ method: 'POST', url: '/limited', payload: { domain: 'HTTPS://Example.COM./' } });
      assert.deepEqual(
        store.takes.map(({ key, max, windowMs }) => ({ key, max, windowMs })),
        [
          { key: 'by-ip:ip:127.0.0.1', max: 10, windowMs: 60_000 },
          { key: 'by-domain:domain:example.com', max: 10, windowMs: 300_000 },
        ],
      );
      store.takes.length = 0;
      await app.inject({
        method: 'GET',
        url: '/limited?domain=sub.example.org',
        headers: { 'x-who': 'alice', 'x-tenant': 't1' },
      });
      assert.deepEqual(
        store.takes.map((h) => h.key),
        [
          'by-ip:ip:127.0.0.1',
          'by-principal:principal:user:alice',
          'by-org:org:org-of-alice',
          'by-domain:domain:sub.example.org',
          'by-fn:t1',
        ],
      );
      store.takes.length = 0;
      await app.inject({ method: 'GET', url: '/free' });
      assert.deepEqual(store.takes, [], 'routes without limits never touch the store');
    } finally {
      await app.close();
    }
  });

  it('skips a domain rule when the request has no valid domain, leaving the refusal to the route', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [{ name: 'crawl', max: 1, windowSeconds: 300, by: 'domain' }]);
    try {
      for (const payload of [
        { domain: 'not a domain' },
        { domain: '10.0.0.1' },
        { domain: 42 },
        { other: 'example.com' },
      ]) {
        assert.equal((await app.inject({ method: 'POST', url: '/limited', payload })).statusCode, 200);
      }
      assert.deepEqual(store.takes, []);
    } finally {
      await app.close();
    }
  });

  it('answers 429 past a limit with the store’s wait rounded up, at least 1 second, counting the request against no rule', async () => {
    const store = new FakeStore();
    const clock = new ManualClock();
    const app = await appWith(
      store,
      [
        { name: 'first', max: 5, windowSeconds: 60, by: 'ip' },
        { name: 'second', max: 1, windowSeconds: 60, by: 'ip' },
        { name: 'third', max: 5, windowSeconds: 60, by: 'ip' },
      ],
      clock,
    );
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 200);
      assert.deepEqual(
        store.takes.map((t) => t.nowMs),
        [clock.now().getTime(), clock.now().getTime(), clock.now().getTime()],
        'times come from the injected clock',
      );
      store.retryAfterMs = 1_001;
      let res = await app.inject({ method: 'GET', url: '/limited' });
      assert.equal(res.statusCode, 429);
      assert.equal(res.headers['retry-after'], '2');
      assert.deepEqual(res.json(), {
        error: 'rate_limited',
        message: 'Rate limit exceeded: 1 requests per minute.',
        retry_after: 2,
      });
      assert.equal(store.counts.get('first:ip:127.0.0.1'), 1, 'the rule before the one exceeded gave its place back');
      assert.equal(store.counts.get('third:ip:127.0.0.1'), 1, 'rules after the one exceeded are not counted');
      store.retryAfterMs = 0;
      res = await app.inject({ method: 'GET', url: '/limited' });
      assert.equal(res.headers['retry-after'], '1');
    } finally {
      await app.close();
    }
  });

  it('counts only accepted requests for a rule that says so, and every request for the others', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [
      { name: 'accepted', max: 1, windowSeconds: 300, by: 'domain', counts: 'accepted' },
      { name: 'every', max: 10, windowSeconds: 300, by: 'ip' },
    ]);
    const send = (refuse?: number) =>
      app.inject({
        method: 'POST',
        url: '/limited',
        payload: { domain: 'example.com' },
        headers: refuse ? { 'x-refuse': String(refuse) } : {},
      });
    try {
      assert.equal((await send(400)).statusCode, 400);
      assert.equal((await send(422)).statusCode, 422);
      assert.equal((await send(500)).statusCode, 500);
      assert.equal(store.counts.get('accepted:domain:example.com'), 0, 'refused requests gave their place back');
      assert.equal(store.counts.get('every:ip:127.0.0.1'), 3);
      assert.equal((await send()).statusCode, 200);
      assert.equal((await send()).statusCode, 429, 'the accepted one counts');
      assert.equal(store.counts.get('every:ip:127.0.0.1'), 4, 'the 429 counted against no rule');
    } finally {
      await app.close();
    }
  });

  it('lets a request through uncounted when the store fails (never a 500), and closes the store with the app', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [{ name: 'any', max: 1, windowSeconds: 60, by: 'ip' }]);
    store.fail = true;
    assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 200);
    store.fail = false;
    assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 429);
    assert.equal(store.closed, false);
    await app.close();
    assert.equal(store.closed, true);
  });
});

/** The spec's crawl-request limit, one request per domain per 5 minutes, on a stand-in route. */
const crawlLimit: RateLimitRule = { name: 'test-crawl', max: 1, windowSeconds: 300, by: 'domain' };

async function startWithCrawlRoute(
  engine: TestEngine,
  clock: ManualClock,
  env: Record<string, string> = {},
): Promise<TestServer> {
  return startTestServer(engine, {
    env,
    deps: { clock },
    extend(app) {
      app.post(
        '/test/crawl-request',
        {
          schema: {
            hide: true,
            body: { type: 'object', required: ['domain'], properties: { domain: { type: 'string' } } },
          },
          config: { rateLimit: [crawlLimit] },
        },
        async (_request, reply) => reply.code(202).send({ accepted: true }),
      );
    },
  });
}

function domainRuleSuite(engine: TestEngine, label: string, env: () => Record<string, string>): () => TestServer {
  let server: TestServer;
  const clock = new ManualClock();
  before(async () => {
    server = await startWithCrawlRoute(engine, clock, env());
  });
  after(() => server.close());
  const crawl = (domain: string) => postJson(`${server.url}/test/crawl-request`, { domain }, {});

  it(`limits a route per normalized domain from the body (${label})`, async () => {
    assert.equal((await crawl('Example.COM')).status, 202);
    clock.advance(100_000);
    const res = await crawl('https://example.com/');
    assert.equal(res.status, 429, 'the same domain written another way shares the budget');
    assert.equal(res.headers.get('retry-after'), '200');
    const body = await json(res);
    assert.deepEqual(body, {
      error: 'rate_limited',
      message: 'Rate limit exceeded: 1 requests per 5 minutes.',
      retry_after: 200,
    });
    assert.equal((await crawl('other.example')).status, 202, 'another domain has its own budget');
  });

  it(`holds "1 per 5 minutes" for any 5 minutes, not per 5 minutes of the clock, and Retry-After is the true wait (${label})`, async () => {
    // 30 s before the clock's 5-minute boundary, where a fixed window would end.
    clock.set(Math.ceil(clock.now().getTime() / 300_000) * 300_000 + 600_000 - 30_000);
    assert.equal((await crawl('boundary.example')).status, 202);
    clock.advance(146_000);
    const second = await crawl('boundary.example');
    assert.equal(second.status, 429, 'a second request 2 min 26 s later');
    assert.equal((await json(second)).retry_after, 154);
    clock.advance(153_000);
    assert.equal((await json(await crawl('boundary.example'))).retry_after, 1);
    clock.advance(1_000);
    assert.equal((await crawl('boundary.example')).status, 202, 'exactly 5 minutes after the first');
  });
  return () => server;
}

eachEngine('rate limits by domain, logs in the database', (engine) => {
  const server = domainRuleSuite(engine, 'database', () => ({}));
  it('kept the logs in the database', async () => {
    const rows = await server().db.query<{ key: string; n: number }>(
      `select key, cardinality(hits) as n from rate_limit_log where key like 'test-crawl:%' order by key`,
    );
    assert.deepEqual(
      rows.map((r) => r.key),
      ['test-crawl:domain:boundary.example', 'test-crawl:domain:example.com', 'test-crawl:domain:other.example'],
    );
  });
});

describe('[redis] rate limits by domain, logs in Redis', () => {
  const redis = isolatedRedis();
  after(() => redis.cleanup());
  const server = domainRuleSuite(
    engines.find((e) => e.name === 'pglite')!,
    'Redis',
    () => ({ REDIS_URL: redis.url }),
  );
  it('kept the logs in Redis, not in the database', async () => {
    const raw = redis.client();
    const key = `${redis.prefix}ap:rate-log:test-crawl:domain:`;
    assert.equal(await raw.zcard(`${key}boundary.example`), 1);
    assert.equal(await raw.zcard(`${key}other.example`), 1);
    assert.deepEqual(await server().db.query(`select key from rate_limit_log`), []);
  });
});
