import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerErrorRendering } from '../../src/http/errors.ts';
import { enforceRateLimits, type CounterHit, type CounterStore, type RateLimitRule } from '../../src/http/rate-limit.ts';
import { eachEngine, engines, type TestEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { postJson } from '../support/requests.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { isolatedRedis, roomInWindow } from './rate-limit/support.ts';

/** A store that records what it is asked and answers what the test says. */
class FakeStore implements CounterStore {
  readonly hits: { key: string; windowSeconds: number }[] = [];
  readonly counts = new Map<string, number>();
  closed = false;
  retryAfterSeconds = 42;
  fail = false;
  async hit(key: string, windowSeconds: number): Promise<CounterHit> {
    if (this.fail) throw new Error('store down');
    this.hits.push({ key, windowSeconds });
    const hits = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, hits);
    return { hits, retryAfterSeconds: this.retryAfterSeconds };
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

async function appWith(store: CounterStore, rules: RateLimitRule[]): Promise<FastifyInstance> {
  const app = Fastify();
  enforceRateLimits(app, store);
  registerErrorRendering(app);
  // Stands in for the auth guard: a principal named by a header.
  app.addHook('onRequest', async (request) => {
    const who = request.headers['x-who'];
    if (typeof who === 'string') {
      request.principal = { kind: 'user', subject: who, displayName: who, organization: { organizationId: `org-of-${who}`, slug: 'o', role: 'member', apiTier: false, registryAdmin: false } };
    }
  });
  app.post('/limited', { config: { rateLimit: rules } }, async () => ({ ok: true }));
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
      { name: 'by-fn', max: 10, windowSeconds: 5, by: (request) => (request.headers['x-tenant'] as string | undefined) },
    ]);
    try {
      await app.inject({ method: 'POST', url: '/limited', payload: { domain: 'HTTPS://Example.COM./' } });
      assert.deepEqual(store.hits, [
        { key: 'by-ip:ip:127.0.0.1', windowSeconds: 60 },
        { key: 'by-domain:domain:example.com', windowSeconds: 300 },
      ]);
      store.hits.length = 0;
      await app.inject({ method: 'GET', url: '/limited?domain=sub.example.org', headers: { 'x-who': 'alice', 'x-tenant': 't1' } });
      assert.deepEqual(store.hits.map((h) => h.key), [
        'by-ip:ip:127.0.0.1',
        'by-principal:principal:user:alice',
        'by-org:org:org-of-alice',
        'by-domain:domain:sub.example.org',
        'by-fn:t1',
      ]);
      store.hits.length = 0;
      await app.inject({ method: 'GET', url: '/free' });
      assert.deepEqual(store.hits, [], 'routes without limits never touch the store');
    } finally {
      await app.close();
    }
  });

  it('skips a domain rule when the request has no valid domain, leaving the refusal to the route', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [{ name: 'crawl', max: 1, windowSeconds: 300, by: 'domain' }]);
    try {
      for (const payload of [{ domain: 'not a domain' }, { domain: '10.0.0.1' }, { domain: 42 }, { other: 'example.com' }]) {
        assert.equal((await app.inject({ method: 'POST', url: '/limited', payload })).statusCode, 200);
      }
      assert.deepEqual(store.hits, []);
    } finally {
      await app.close();
    }
  });

  it('answers 429 past a limit with retry_after and Retry-After, at least 1 second', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [
      { name: 'first', max: 1, windowSeconds: 60, by: 'ip' },
      { name: 'second', max: 5, windowSeconds: 60, by: 'ip' },
    ]);
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 200);
      store.retryAfterSeconds = 0; // the window ends this very second
      const res = await app.inject({ method: 'GET', url: '/limited' });
      assert.equal(res.statusCode, 429);
      assert.equal(res.headers['retry-after'], '1');
      assert.deepEqual(res.json(), { error: 'rate_limited', message: 'Rate limit exceeded: 1 requests per minute.', retry_after: 1 });
      assert.equal(store.counts.get('second:ip:127.0.0.1'), 1, 'rules after the one exceeded are not counted');
    } finally {
      await app.close();
    }
  });

  it('fails the request when the store fails, and closes the store with the app', async () => {
    const store = new FakeStore();
    const app = await appWith(store, [{ name: 'any', max: 1, windowSeconds: 60, by: 'ip' }]);
    store.fail = true;
    assert.equal((await app.inject({ method: 'GET', url: '/limited' })).statusCode, 500);
    assert.equal(store.closed, false);
    await app.close();
    assert.equal(store.closed, true);
  });
});

/** The spec's crawl-request limit, one request per domain per 5 minutes, on a stand-in route. */
const crawlLimit: RateLimitRule = { name: 'test-crawl', max: 1, windowSeconds: 300, by: 'domain' };

async function startWithCrawlRoute(engine: TestEngine, env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer(engine, {
    env,
    extend(app) {
      app.post(
        '/test/crawl-request',
        {
          schema: { hide: true, body: { type: 'object', required: ['domain'], properties: { domain: { type: 'string' } } } },
          config: { rateLimit: [crawlLimit] },
        },
        async (_request, reply) => reply.code(202).send({ accepted: true }),
      );
    },
  });
}

function domainRuleSuite(engine: TestEngine, label: string, env: () => Record<string, string>): () => TestServer {
  let server: TestServer;
  before(async () => {
    server = await startWithCrawlRoute(engine, env());
  });
  after(() => server.close());

  it(`limits a route per normalized domain from the body (${label})`, async () => {
    await roomInWindow(300, 10);
    const crawl = (domain: string) => postJson(`${server.url}/test/crawl-request`, { domain }, {});
    assert.equal((await crawl('Example.COM')).status, 202);
    const res = await crawl('https://example.com/');
    assert.equal(res.status, 429, 'the same domain written another way shares the budget');
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 300, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
    assert.match(body.message, /1 requests per 5 minutes/);
    assert.equal((await crawl('other.example')).status, 202, 'another domain has its own budget');
  });
  return () => server;
}

eachEngine('rate limits by domain, counters in the database', (engine) => {
  const server = domainRuleSuite(engine, 'database', () => ({}));
  it('kept the counters in the database', async () => {
    const rows = await server().db.query<{ key: string; hits: number }>(`select key, hits from rate_limit_counters order by key`);
    assert.deepEqual(rows, [
      { key: 'test-crawl:domain:example.com', hits: 2 },
      { key: 'test-crawl:domain:other.example', hits: 1 },
    ]);
  });
});

describe('[redis] rate limits by domain, counters in Redis', () => {
  const redis = isolatedRedis();
  after(() => redis.cleanup());
  const server = domainRuleSuite(engines.find((e) => e.name === 'pglite')!, 'Redis', () => ({ REDIS_URL: redis.url }));
  it('kept the counters in Redis, not in the database', async () => {
    const raw = redis.client();
    const key = `${redis.prefix}ap:rate-limit:test-crawl:domain:`;
    assert.deepEqual(await raw.mget(`${key}example.com`, `${key}other.example`), ['2', '1']);
    assert.deepEqual(await server().db.query(`select key from rate_limit_counters`), []);
  });
});
