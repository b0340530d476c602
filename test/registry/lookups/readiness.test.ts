import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadMigrations, migrate } from '../../../src/db/migrate.ts';
import { buildApp } from '../../../src/app/build-app.ts';
import { agents, buildWorld } from '../../support/authorization-world.ts';
import { engines } from '../../support/engines.ts';
import { anotherPool } from '../../support/feed.ts';
import { json } from '../../support/http.ts';
import { testConfig } from '../../support/server.ts';

const check = `/api/registry/validate/property-authorization?${new URLSearchParams({ agent_url: agents.meridian, identifier_type: 'domain', identifier_value: 'dailyplanet.example', delegation_type: 'delegated' })}`;

/**
 * A process takes traffic only once its authorization index has read the registry graph: until
 * then /readyz answers 503 naming the index, and lookups answer 503 rather than guess. The test
 * holds the index back deterministically by locking the catalog before the server starts.
 */
describe('[postgres] readiness waits for the authorization index', () => {
  it('answers 503 naming the authorization index while it loads, then 200 once it has caught up', async () => {
    const db = await engines.find((e) => e.name === 'postgres')!.open();
    const migrations = await loadMigrations();
    await migrate(db, migrations);
    await buildWorld(db);

    // Another session holds the catalog exclusively: the index's snapshot read waits behind it.
    const locker = await anotherPool(db, 1);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = locker.transaction(async (tx) => {
      await tx.query('lock table catalog_properties in access exclusive mode');
      locked();
      await released;
    });
    await lockTaken;

    let app: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      app = await buildApp({ config: testConfig(), db, migrations });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      assert.ok(address && typeof address !== 'string');
      const url = `http://127.0.0.1:${address.port}`;

      const loading = await fetch(`${url}/readyz`);
      assert.equal(loading.status, 503);
      const body = await json(loading);
      assert.equal(body['error'], 'service_unavailable');
      assert.match(body['message'], /authorization index/);
      const early = await fetch(`${url}${check}`);
      assert.equal(early.status, 503);
      assert.equal((await json(early))['error'], 'service_unavailable');
      assert.equal(app.authorizationIndex.live, false);

      release();
      await holding;
      await app.authorizationIndex.until((index) => index.live);
      const ready = await fetch(`${url}/readyz`);
      const readyBody = await json(ready);
      assert.equal(ready.status, 200, JSON.stringify(readyBody));
      assert.equal(readyBody['status'], 'ready');
      const answered = await fetch(`${url}${check}`);
      assert.equal(answered.status, 200);
      assert.equal((await json(answered))['result'].status, 'authorized');
    } finally {
      release();
      await holding.catch(() => {});
      await locker.close();
      // The app closes the database it was given; without one, close it here.
      await (app ? app.close() : db.close());
    }
  });
});
