import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openPostgres } from '../../src/db/postgres.ts';
import { publishAdagents } from '../support/authorization-world.ts';
import { runAp, serveAp, untilReady, type ServingAp } from '../support/cli.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { adminKey, asAdmin } from '../support/server.ts';

/**
 * Drill: three web instances and a worker on one PostgreSQL, under a mixed load of saves and
 * reads, while PostgreSQL is stopped (a fast shutdown, every connection cut) and started again.
 * While it is down, what needs it answers 503 with Retry-After and /readyz says why; nothing
 * answers 500; every instance recovers by itself; no save that was acknowledged is lost.
 */
const clients = 6;
const checkPath = `/api/registry/validate/property-authorization?${new URLSearchParams({
  agent_url: 'https://sales.drill.example/mcp',
  identifier_type: 'domain',
  identifier_value: 'drill.example',
})}`;

interface Outcome {
  status: number;
  retryAfter: string | null;
  what: string;
}

describe('drill: PostgreSQL restarted under load', { timeout: 60_000 }, () => {
  let pg: PrivatePostgres;
  let webs: ServingAp[] = [];
  let worker: ServingAp;
  const outcomes: Outcome[] = [];
  const acknowledged: string[] = [];
  let saves = 0;
  let running = true;
  let load: Promise<void>;

  before(async () => {
    pg = await startPrivatePostgres();
    const env = {
      DATABASE_URL: pg.url,
      AP_ADMIN_KEY: adminKey,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SAVES_PER_HOUR: '1000000',
      RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '1000000',
      RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000000',
    };
    const migrated = await runAp(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    [worker, ...webs] = await Promise.all([
      serveAp(['--role', 'worker'], { ...env, LOG_LEVEL: 'info' }),
      ...[0, 1, 2].map(() => serveAp(['--role', 'web'], { ...env, LOG_LEVEL: 'info' })),
    ]);
    await Promise.all([worker, ...webs].map((ap) => untilReady(ap)));
  });
  after(async () => {
    running = false;
    await load;
    await Promise.all([worker, ...webs].map((ap) => ap?.stop()));
    await pg?.close();
  });

  async function request(base: string, what: string, init?: RequestInit): Promise<number> {
    const res = await fetch(`${base}${what.split(' ')[1]}`, init);
    await res.arrayBuffer();
    outcomes.push({ status: res.status, retryAfter: res.headers.get('retry-after'), what });
    return res.status;
  }

  /** One client: saves a new entry, reads it back, checks an authorization, lists publishers; round robin over the web instances. */
  async function client(id: number): Promise<void> {
    for (let turn = 0; running; turn++) {
      const base = webs[(id + turn) % webs.length]!.url;
      const domain = `drill-${id}-${saves++}.example`;
      const status = await request(base, 'POST /api/properties/save', {
        method: 'POST',
        headers: { ...asAdmin, 'content-type': 'application/json' },
        body: JSON.stringify({
          publisher_domain: domain,
          authorized_agents: [{ url: 'https://sales.drill.example/mcp' }],
          properties: [{ type: 'website', name: domain, identifiers: [{ type: 'domain', value: domain }] }],
        }),
      });
      if (status === 200 || status === 201) acknowledged.push(domain);
      await request(base, `GET /api/properties/resolve?domain=${acknowledged.at(-1) ?? domain}`);
      await request(base, `GET ${checkPath}`);
      await request(base, 'GET /api/registry/publishers?limit=5');
    }
  }

  async function verdict(web: ServingAp): Promise<string> {
    const res = await fetch(`${web.url}${checkPath}`);
    const body = (await res.json()) as { result?: { status: string } };
    if (!body.result) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body.result.status;
  }

  async function readiness(): Promise<Array<{ status: number; body: string; retryAfter: string | null }>> {
    return Promise.all(
      [...webs, worker].map(async (ap) => {
        const res = await fetch(`${ap.url}/readyz`);
        return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
      }),
    );
  }

  it('answers 503 with Retry-After while it is down, never 500, recovers by itself and loses no acknowledged save', async () => {
    load = Promise.all(Array.from({ length: clients }, (_, id) => client(id))).then(() => {});
    const until = async (count: number) => {
      const target = outcomes.length + count;
      while (outcomes.length < target) await new Promise((resolve) => setImmediate(resolve));
    };
    await until(200);
    const savedBefore = acknowledged.length;
    assert.ok(savedBefore > 0, 'saves were acknowledged before the outage');

    await pg.stop();
    const outageStart = outcomes.length;
    await until(200);
    for (const ready of await readiness()) {
      assert.equal(ready.status, 503, ready.body);
      assert.match(ready.body, /database is unreachable/);
      assert.ok(ready.retryAfter, 'readyz says when to come back');
    }
    const duringOutage = outcomes.slice(outageStart);

    await pg.start();
    // Every instance comes back by itself: /readyz turns 200 on each, with no restart.
    for (;;) {
      const states = await readiness();
      if (states.every((s) => s.status === 200)) break;
      await until(10);
    }
    const recoveredAt = acknowledged.length;
    await until(300);
    running = false;
    await load;

    const statuses = new Map<number, number>();
    for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    assert.deepEqual(
      [...statuses.keys()].filter((s) => ![200, 201, 404, 503].includes(s)),
      [],
      JSON.stringify(Object.fromEntries(statuses)),
    );
    assert.ok(
      duringOutage.some((o) => o.status === 503),
      'the outage was met',
    );
    assert.deepEqual(
      outcomes.filter((o) => o.status === 503 && !o.retryAfter).map((o) => o.what),
      [],
      'every 503 says when to retry',
    );
    // Answered from memory while the database was away.
    assert.ok(duringOutage.some((o) => o.what.startsWith('GET /api/registry/validate') && o.status === 200));
    assert.ok(acknowledged.length > recoveredAt, 'saves are acknowledged again after the restart');
    for (const domain of acknowledged) {
      const res = await fetch(`${webs[0]!.url}/api/properties/resolve?domain=${domain}`);
      await res.arrayBuffer();
      assert.equal(res.status, 200, `acknowledged save of ${domain} is there`);
    }
  });

  it('has every web instance follow the feed again: a change committed after the restart shows in each one’s check', async () => {
    for (const web of webs) assert.equal(await verdict(web), 'unknown');
    const db = await openPostgres({ url: pg.url, poolMax: 1 });
    try {
      await publishAdagents(db, 'drill.example', {
        properties: [
          {
            property_id: 'site',
            property_type: 'website',
            name: 'Drill',
            identifiers: [{ type: 'domain', value: 'drill.example' }],
          },
        ],
        authorized_agents: [
          {
            url: 'https://sales.drill.example/mcp',
            authorized_for: 'Display',
            authorization_type: 'property_ids',
            property_ids: ['site'],
          },
        ],
      });
    } finally {
      await db.close();
    }
    // Until then drill.example had no file (unknown); now its publisher's side is known, the operator's not.
    for (const web of webs) {
      for (let status = 'unknown'; status === 'unknown';) status = await verdict(web);
    }
  });
});
