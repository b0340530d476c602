import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { serveAp, type ServingAp } from '../support/cli.ts';
import { adminKey, asAdmin } from '../support/server.ts';
import { freePort } from '../support/ports.ts';

/**
 * Drill: `ap serve` keeping its rate-limit logs in Redis (REDIS_URL) while Redis stops and starts
 * again. The documented degradation: while Redis is away the limits let requests through uncounted
 * (logged), nothing answers 500 or waits on Redis; once it is back the limits count again.
 */
const savesPerHour = 3;

/** A scratch Redis of the test's own (nothing saved), so stopping it touches no other test. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.includes('Ready to accept connections')) break;
  child.stdout!.resume();
  return child;
}

describe('drill: Redis stopped under an instance that keeps its rate limits there', { timeout: 60_000 }, () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let ap: ServingAp;
  let saves = 0;

  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
    ap = await serveAp([], {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      AP_ADMIN_KEY: adminKey,
      RATE_LIMIT_SAVES_PER_HOUR: String(savesPerHour),
    });
  });
  after(async () => {
    await ap?.stop();
    redis?.kill('SIGTERM');
  });

  async function save(): Promise<{ status: number; ms: number }> {
    const started = performance.now();
    const domain = `redis-drill-${saves++}.example`;
    const res = await fetch(`${ap.url}/api/properties/save`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({
        publisher_domain: domain,
        authorized_agents: [{ url: 'https://sales.drill.example/mcp' }],
      }),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  }

  it('limits while Redis serves, lets requests through uncounted while it is away, and limits again once it is back', async () => {
    const limited = [];
    for (let i = 0; i <= savesPerHour; i++) limited.push((await save()).status);
    assert.deepEqual(
      limited.slice(0, savesPerHour).every((s) => s === 200 || s === 201),
      true,
      String(limited),
    );
    assert.equal(limited.at(-1), 429);

    redis!.kill('SIGTERM');
    await once(redis!, 'exit');
    redis = undefined;
    const away = [];
    for (let i = 0; i < 5; i++) away.push(await save());
    assert.deepEqual(
      away.map((a) => a.status).filter((s) => s !== 200 && s !== 201),
      [],
      JSON.stringify(away),
    );
    // No request waits on the missing Redis (its command timeout is two seconds).
    assert.ok(
      away.every((a) => a.ms < 1000),
      JSON.stringify(away.map((a) => Math.round(a.ms))),
    );
    assert.equal((await fetch(`${ap.url}/readyz`)).status, 200);

    redis = await startRedis(port);
    // Counted again once the client has reconnected: the window, empty in the new Redis, fills up.
    const back: number[] = [];
    while (back.at(-1) !== 429) {
      back.push((await save()).status);
      assert.ok(back.length <= 50, `no 429 after ${back.length} saves with Redis back: ${back}`);
    }
    assert.ok(
      back.slice(0, -1).every((s) => s === 200 || s === 201),
      String(back),
    );
  });
});
