import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { buildApp } from '../../src/app/build-app.ts';
import { Readiness } from '../../src/http/health.ts';
import { eachEngine, engines } from '../support/engines.ts';
import { startTestServer, testConfig, type TestServer } from '../support/server.ts';
import { json } from '../support/http.ts';

eachEngine('health', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('answers liveness without the database', async () => {
    const res = await fetch(`${server.url}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), { status: 'ok' });
  });

  it('answers readiness with the engine and migration state', async () => {
    const res = await fetch(`${server.url}/readyz`);
    assert.equal(res.status, 200);
    const migrations = await loadMigrations();
    assert.deepEqual(await json(res), {
      status: 'ready',
      engine: engine.name,
      migrations: { applied: migrations.length, pending: 0 },
    });
  });
});

describe('readiness when not ready', () => {
  it('answers 503 while a migration is pending', async () => {
    const db = await engines[0]!.open();
    const migrations = await loadMigrations();
    await migrate(db, migrations);
    const pending = { version: migrations.length + 1, name: 'not_yet', sql: 'select 1', checksum: 'x' };
    const app = await buildApp({ config: testConfig(), db, migrations: [...migrations, pending] });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().error, 'service_unavailable');
      assert.match(res.json().message, /1 migration\(s\) pending/);
    } finally {
      await app.close();
    }
  });

  it('answers 503 without internals when the database is unreachable, while liveness stays 200', async () => {
    const db: Database = openPostgres({ url: 'postgres://postgres@127.0.0.1:1/none' });
    // Without AP_ADMIN_KEY: installing it at start needs the database this test takes away.
    const app = await buildApp({ config: testConfig({ AP_ADMIN_KEY: '' }), db, migrations: [] });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), {
        error: 'service_unavailable',
        message: 'The database is unreachable.',
        retry_after: 5,
      });
      assert.equal(ready.headers['retry-after'], '5');
      assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('Readiness', () => {
  it('settles ready() only once every check passes, when told a check has turned', async () => {
    const readiness = new Readiness();
    let index = false;
    let demo = false;
    readiness.add('index', () => (index ? undefined : 'catching up'));
    readiness.add('demo', () => (demo ? undefined : 'enrolling'));
    let settled = false;
    const ready = readiness.ready().then(() => (settled = true));
    index = true;
    readiness.changed();
    await Promise.resolve();
    assert.equal(settled, false);
    assert.equal(readiness.blocker(), 'demo: enrolling');
    demo = true;
    readiness.changed();
    await ready;
    assert.equal(readiness.blocker(), undefined);
    await readiness.ready();
  });
});
