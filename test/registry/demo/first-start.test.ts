import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serveAp } from '../../support/cli.ts';
import { json } from '../../support/http.ts';

// What a newcomer sees after `npm start`: the real command, on an empty embedded database, with
// neither AP_DEMO nor AP_ADMIN_KEY set (empty reads as unset, as for every setting).
describe('ap serve on a first start', () => {
  it('seeds the demo registry and prints, once, an admin key that reads the feed', { timeout: 120_000 }, async () => {
    const server = await serveAp(['--data-dir', 'memory://'], {
      AP_DEMO: '',
      AP_ADMIN_KEY: '',
      DATABASE_URL: '',
      REDIS_URL: '',
    });
    try {
      const lines = server.logs.filter((line) => line.includes('demo registry seeded'));
      assert.equal(lines.length, 1, server.logs.join('\n'));
      const key = /admin API key \(shown once\): (ap_[A-Za-z0-9_-]+)/.exec(lines[0]!)?.[1];
      assert.ok(key, lines[0]);

      const brand = await fetch(`${server.url}/api/brands/resolve?domain=trailhead-coffee.example`);
      assert.equal(brand.status, 200);
      assert.equal((await json(brand)).house_domain, 'northwind-group.example');

      const feed = await fetch(`${server.url}/api/registry/feed?limit=5`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(feed.status, 200);
      const page = await json(feed);
      assert.equal(page.events.length, 5);
      assert.equal(page.has_more, true);
      assert.equal((await fetch(`${server.url}/api/registry/feed?limit=5`)).status, 401);
    } finally {
      await server.stop();
    }
  });
});
