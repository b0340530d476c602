import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { loadMirrorConfig, startMirror, type RunningMirror } from '../../src/mirror/index.ts';
import { agents, buildWorld, dailyPlanet, publishAdagents, publishBrandJson } from '../support/authorization-world.ts';
import { runAp } from '../support/cli.ts';
import { ManualClock } from '../support/clock.ts';
import { engines } from '../support/engines.ts';
import type { Json } from '../support/http.ts';
import { startUpstream, type Upstream } from '../support/mirror.ts';
import { adminKey, asAdmin } from '../support/server.ts';
import { freePort } from '../support/ports.ts';
import { postJson } from '../support/requests.ts';

const checkPath = `/api/registry/validate/property-authorization?${new URLSearchParams({
  agent_url: agents.meridian,
  identifier_type: 'domain',
  identifier_value: 'dailyplanet.example',
  delegation_type: 'delegated',
})}`;

async function get(base: string, path: string): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

async function upstreamHead(upstream: Upstream): Promise<string> {
  const res = await fetch(`${upstream.url}/api/registry/feed?limit=1`, { headers: asAdmin });
  let cursor = ((await res.json()) as Json)['cursor'] as string;
  // The feed's last event: page from the first until nothing more comes.
  for (;;) {
    const page = (await (
      await fetch(`${upstream.url}/api/registry/feed?limit=10000&cursor=${cursor}`, { headers: asAdmin })
    ).json()) as Json;
    if (page['cursor'] === cursor) return cursor;
    cursor = page['cursor'] as string;
  }
}

describe('ap mirror', () => {
  it('refuses to start without the registry to follow', async () => {
    const result = await runAp(['mirror'], { AP_MIRROR_FROM: '' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /AP_MIRROR_FROM \(--from\) is required/);
  });

  const pglite = engines.find((e) => e.name === 'pglite')!;
  const clock = new ManualClock();
  let db: Database;
  let port: number;
  let upstream: Upstream | undefined;
  let mirror: RunningMirror;

  before(async () => {
    db = await pglite.openMigrated();
    await buildWorld(db);
    port = await freePort();
    mirror = await startMirror(
      loadMirrorConfig({ from: `http://127.0.0.1:${port}/`, token: adminKey, port: '0' }, { LOG_LEVEL: 'silent' }),
      { clock },
    );
  });
  after(async () => {
    await mirror?.close();
    await upstream?.app.close();
    await db?.close();
  });

  it('is not ready, and answers no lookup, until it has loaded the upstream’s state', async () => {
    const ready = await get(mirror.url, '/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.body['error'], 'service_unavailable');
    assert.equal((await get(mirror.url, checkPath)).status, 503);
    assert.equal((await get(mirror.url, '/api/brands/resolve?domain=meridian.example')).status, 503);

    upstream = await startUpstream(db, port);
    await mirror.app.mirror!.until((m) => m.live);
    const head = await upstreamHead(upstream);
    const now = await get(mirror.url, '/readyz');
    assert.equal(now.status, 200);
    assert.deepEqual(now.body, {
      status: 'ready',
      upstream: `http://127.0.0.1:${port}/`,
      cursor: head,
      lag_ms: 0,
      streaming: true,
      bootstraps: 1,
    });
  });

  it('answers as the upstream does, saying where in its feed the answer stands', async () => {
    const mirrored = await get(mirror.url, checkPath);
    const upstreams = await get(upstream!.url, checkPath);
    assert.equal(mirrored.status, 200);
    assert.equal(mirrored.body['result'].status, 'authorized');
    const { checked_at: _m, ...mirroredAnswer } = mirrored.body;
    const { checked_at: _u, ...upstreamAnswer } = upstreams.body;
    assert.deepEqual(mirroredAnswer, upstreamAnswer);
    assert.equal(mirrored.headers.get('x-mirror-cursor'), await upstreamHead(upstream!));
    assert.equal(mirrored.headers.get('x-mirror-lag-ms'), '0');
    for (const path of [
      '/api/registry/lookup/domain/dailyplanet.example',
      '/api/registry/publisher?domain=dailyplanet.example',
    ])
      assert.deepEqual((await get(mirror.url, path)).body, (await get(upstream!.url, path)).body, path);
  });

  it('resolves brands (by their domain, by an alias their house declares) and property entries as the upstream does', async () => {
    await publishBrandJson(db, 'globex.example', {
      house: { domain: 'globex.example', name: 'Globex' },
      brands: [
        {
          id: 'globex',
          names: [{ en: 'Globex' }],
          keller_type: 'master',
          properties: [
            { type: 'website', identifier: 'globex.example' },
            { type: 'website', identifier: 'globex.co.uk' },
          ],
        },
      ],
    });
    await mirror.app.mirror!.reached(await upstreamHead(upstream!));
    const paths = [
      '/api/brands/resolve?domain=meridian.example',
      '/api/brands/resolve?domain=globex.co.uk',
      '/api/brands/resolve?domain=DailyPlanet.example',
      '/api/brands/resolve?domain=nowhere.example',
      '/api/properties/resolve?domain=dailyplanet.example',
      '/api/properties/resolve?domain=stalenews.example',
      '/api/properties/resolve?domain=nowhere.example',
      '/api/properties/resolve?domain=not a domain',
    ];
    for (const path of paths) {
      const [mirrored, upstreams] = [await get(mirror.url, path), await get(upstream!.url, path)];
      assert.deepEqual([mirrored.status, mirrored.body], [upstreams.status, upstreams.body], path);
    }
    assert.equal((await get(mirror.url, paths[1]!)).body['canonical_domain'], 'globex.example');
    assert.equal((await get(mirror.url, paths[5]!)).body['status'], 'stale');
    for (const kind of ['brands', 'properties']) {
      const bulk = async (base: string) => {
        const res = await postJson(`${base}/api/${kind}/resolve/bulk`, {
          domains: ['meridian.example', 'globex.co.uk', 'stalenews.example', 'dailyplanet.example', 'nowhere.example'],
        });
        return [res.status, await res.json()];
      };
      assert.deepEqual(await bulk(mirror.url), await bulk(upstream!.url), kind);
    }
  });

  it('resolves what is saved upstream once the feed brings it, as the upstream does', async () => {
    const brand = await postJson(`${upstream!.url}/api/brands/save`, {
      domain: 'corner-shop.example',
      brand_name: 'Corner Shop',
    });
    assert.equal(brand.status, 201, await brand.text());
    const entry = await postJson(`${upstream!.url}/api/properties/save`, {
      publisher_domain: 'corner-news.example',
      authorized_agents: [{ url: agents.adnet }],
      properties: [{ type: 'website', name: 'Corner News' }],
    });
    assert.equal(entry.status, 201, await entry.text());
    await mirror.app.mirror!.reached(await upstreamHead(upstream!));
    for (const path of [
      '/api/brands/resolve?domain=corner-shop.example',
      '/api/properties/resolve?domain=corner-news.example',
    ]) {
      const [mirrored, upstreams] = [await get(mirror.url, path), await get(upstream!.url, path)];
      assert.equal(mirrored.status, 200, path);
      assert.deepEqual(mirrored.body, upstreams.body, path);
    }
  });

  it('answers a check asked again from its kept answer, with the same body and headers as the first time', async () => {
    const path = `/api/registry/validate/property-authorization?${new URLSearchParams({
      agent_url: agents.adnet,
      identifier_type: 'ios_bundle',
      identifier_value: 'com.dailyplanet.app',
    })}`;
    const ask = (id: string) =>
      fetch(`${mirror.url}${path}`, { headers: { origin: 'https://ads.example', 'x-request-id': id } });
    const first = await ask('impression-1');
    const second = await ask('impression-2');
    const headersOf = (res: Response) => {
      const { date: _, 'x-request-id': id, ...rest } = Object.fromEntries(res.headers);
      return { id, rest };
    };
    const [one, two] = [headersOf(first), headersOf(second)];
    assert.deepEqual([one.id, two.id], ['impression-1', 'impression-2']);
    assert.deepEqual(two.rest, one.rest);
    const { checked_at: at1, ...body1 } = (await first.json()) as Json;
    const { checked_at: at2, ...body2 } = (await second.json()) as Json;
    assert.deepEqual(body2, body1);
    assert.ok(Date.parse(at2) >= Date.parse(at1));
    const metrics = await (await fetch(`${mirror.url}/metrics`)).text();
    assert.match(metrics, /^mirror_kept_answers_total [1-9]/m);
    assert.match(metrics, /^mirror_streaming 1$/m);
    assert.match(metrics, /^mirror_lag_seconds 0$/m);
    assert.match(metrics, /^mirror_bootstraps_total 1$/m);
  });

  it('refuses writes and what it does not serve, naming the upstream', async () => {
    const save = await fetch(`${mirror.url}/api/properties/save`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ publisher_domain: 'x.example' }),
    });
    const refused = (await save.json()) as Json;
    assert.equal(save.status, 405);
    assert.equal(refused['error'], 'read_only_mirror');
    assert.match(refused['message'], new RegExp(`POST /api/properties/save there`));
    assert.match(refused['message'], new RegExp(`127\\.0\\.0\\.1:${port}`));
    const listing = await get(mirror.url, '/api/brands/registry');
    assert.equal(listing.status, 404);
    assert.equal(listing.body['error'], 'not_mirrored');
    assert.match(listing.body['message'], new RegExp(`127\\.0\\.0\\.1:${port}`));
  });

  it('keeps serving its last state while the upstream is away, saying how far behind it may be, and catches up', async () => {
    const before = await get(mirror.url, checkPath);
    await upstream!.app.close();
    upstream = undefined;
    await mirror.app.mirror!.until((m) => !m.streaming);
    // Meridian loses the site while the mirror cannot hear of it.
    await publishAdagents(db, 'dailyplanet.example', dailyPlanet({ withMeridian: false }));
    clock.advance(5000);
    const away = await get(mirror.url, checkPath);
    assert.equal(away.status, 200);
    assert.equal(away.body['result'].status, before.body['result'].status);
    assert.equal(away.headers.get('x-mirror-lag-ms'), '5000');
    const ready = await get(mirror.url, '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body['streaming'], false);
    assert.equal(ready.body['lag_ms'], 5000);
    const metrics = await (await fetch(`${mirror.url}/metrics`)).text();
    assert.match(metrics, /^mirror_streaming 0$/m);
    assert.match(metrics, /^mirror_lag_seconds 5$/m);

    upstream = await startUpstream(db, port);
    await mirror.app.mirror!.reached(await upstreamHead(upstream));
    await mirror.app.mirror!.until((m) => m.streaming);
    const back = await get(mirror.url, checkPath);
    assert.notEqual(back.body['result'].status, 'authorized');
    assert.equal(back.headers.get('x-mirror-lag-ms'), '0');
    assert.equal(mirror.app.mirror!.bootstraps, 1);
  });
});
