import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openPostgres } from '../../src/db/postgres.ts';
import { agents, buildWorld } from '../support/authorization-world.ts';
import { runAp, serveAp, untilReady, type ServingAp } from '../support/cli.ts';
import type { Json } from '../support/http.ts';
import { pgBinary, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { adminKey, asAdmin } from '../support/server.ts';

const run = promisify(execFile);

/**
 * Drill: the backup and restore of docs/operations.md, as written there: `pg_dump --format=custom`
 * of a live registry, `pg_restore` into a new database, `ap serve` on the copy. The copy answers
 * every lookup as the original did, and its feed ends at the same event.
 */
describe('drill: backup with pg_dump and restore with pg_restore', { timeout: 60_000 }, () => {
  let pg: PrivatePostgres;
  let dir: string;
  let original: ServingAp;
  let restored: ServingAp | undefined;
  const env = (url: string) => ({ DATABASE_URL: url, AP_ADMIN_KEY: adminKey, REDIS_URL: '' });

  before(async () => {
    pg = await startPrivatePostgres();
    dir = mkdtempSync(join(tmpdir(), 'ap-backup-'));
    assert.equal((await runAp(['migrate'], env(pg.url))).code, 0);
    const db = openPostgres({ url: pg.url, poolMax: 1 });
    try {
      await buildWorld(db);
    } finally {
      await db.close();
    }
    original = await serveAp([], env(pg.url));
    await untilReady(original);
  });
  after(async () => {
    await original?.stop();
    await restored?.stop();
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores a registry that answers as the original and whose feed ends at the same event', async () => {
    const dump = join(dir, 'ap.dump');
    const restoredUrl = pg.url.replace(/\/postgres$/, '/ap_restored');
    await run(pgBinary('pg_dump'), ['--format=custom', `--file=${dump}`, pg.url]);
    await run(pgBinary('createdb'), [
      '--host=127.0.0.1',
      `--port=${new URL(pg.url).port}`,
      '--username=postgres',
      'ap_restored',
    ]);
    await run(pgBinary('pg_restore'), ['--no-owner', `--dbname=${restoredUrl}`, dump]);
    restored = await serveAp([], env(restoredUrl));
    await untilReady(restored);

    const paths = [
      `/api/registry/validate/property-authorization?${new URLSearchParams({ agent_url: agents.meridian, identifier_type: 'domain', identifier_value: 'dailyplanet.example', delegation_type: 'delegated' })}`,
      '/api/registry/lookup/domain/dailyplanet.example',
      '/api/registry/lookup/domain/stalenews.example',
      '/api/registry/publishers',
      '/api/brands/resolve?domain=meridian.example',
    ];
    const answer = async (base: string, path: string) => {
      const { checked_at: _, ...body } = (await (await fetch(`${base}${path}`)).json()) as Json;
      return body;
    };
    for (const path of paths)
      assert.deepEqual(await answer(restored.url, path), await answer(original.url, path), path);
    const head = async (base: string) =>
      ((await (await fetch(`${base}/api/registry/feed?limit=10000`, { headers: asAdmin })).json()) as Json)['cursor'];
    assert.equal(await head(restored.url), await head(original.url));
  });
});
