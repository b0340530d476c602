import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

eachEngine('metrics', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('counts requests by route pattern and status', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/healthz`);
    const text = await scrape();
    assert.match(text, /^http_requests_total\{method="GET",route="\/healthz",status="200"\} 3$/m);
    assert.match(text, /^http_request_duration_seconds_count\{method="GET",route="\/healthz"\} 3$/m);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz"\} \d+$/m);
  });

  it('keeps counting across scrapes, each request once', async () => {
    const probe = async () => (await fetch(`${server.url}/readyz`)).status;
    const statuses = [await probe(), await probe()];
    const count = (text: string) =>
      Number(
        new RegExp(`^http_requests_total\\{method="GET",route="/readyz",status="${statuses[0]}"\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1],
      );
    assert.equal(count(await scrape()), 2);
    assert.equal(count(await scrape()), 2, 'a scrape alone adds nothing');
    await probe();
    const text = await scrape();
    assert.equal(count(text), 3);
    assert.match(text, /^http_request_duration_seconds_count\{method="GET",route="\/readyz"\} 3$/m);
  });

  it('labels unmatched URLs alike, so hostile URLs cannot grow the series', async () => {
    for (let i = 0; i < 5; i++) await fetch(`${server.url}/probe-${i}-${Math.random()}`);
    const text = await scrape();
    assert.match(text, /^http_requests_total\{method="GET",route="unmatched",status="404"\} 5$/m);
    assert.doesNotMatch(text, /probe-/);
  });

  it('reports the database pool and the process', async () => {
    const text = await scrape();
    assert.match(text, new RegExp(`^db_pool_connections\\{engine="${engine.name}",state="total"\\} \\d+$`, 'm'));
    assert.match(text, new RegExp(`^db_pool_connections\\{engine="${engine.name}",state="waiting"\\} 0$`, 'm'));
    assert.match(text, /^process_resident_memory_bytes \d+/m);
  });
});
