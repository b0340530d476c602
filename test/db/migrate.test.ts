import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { loadMigrations, migrate, migrationStatus, type Migration } from '../../src/db/migrate.ts';
import { eachEngine, seedPgliteDirectory } from '../support/engines.ts';

async function migrationsFrom(files: Record<string, string>): Promise<Migration[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ap-migrations-'));
  try {
    for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
    return await loadMigrations(pathToFileURL(`${dir}/`));
  } finally {
    await rm(dir, { recursive: true });
  }
}

const steps = {
  '0001_create_widgets.sql': '-- why: widgets\ncreate table widgets (id int primary key);',
  '0002_add_name.sql': '-- why: names\nalter table widgets add column name text;',
};

describe('loading migrations', () => {
  it('reads numbered files in order with their checksums', async () => {
    const list = await migrationsFrom({ ...steps, 'README.md': 'ignored' });
    assert.deepEqual(
      list.map((m) => [m.version, m.name]),
      [
        [1, 'create_widgets'],
        [2, 'add_name'],
      ],
    );
    assert.match(list[0]!.checksum, /^[0-9a-f]{64}$/);
  });

  it('rejects a gap in the numbering and a badly named file', async () => {
    await assert.rejects(
      migrationsFrom({ '0001_a.sql': 'select 1', '0003_c.sql': 'select 1' }),
      /should be numbered 0002/,
    );
    await assert.rejects(migrationsFrom({ '1_a.sql': 'select 1' }), /NNNN_name\.sql/);
  });

  it('loads the project migrations', async () => {
    const list = await loadMigrations();
    list.forEach((m, i) => assert.equal(m.version, i + 1));
  });
});

eachEngine('migrations', (engine) => {
  let db: Database;
  beforeEach(async () => {
    db = await engine.open();
  });
  afterEach(() => db.close());

  it('applies pending steps once, in order, and records them', async () => {
    const list = await migrationsFrom(steps);
    assert.equal((await migrationStatus(db, list)).pending.length, 2);
    assert.deepEqual(
      (await migrate(db, list)).map((m) => m.version),
      [1, 2],
    );
    assert.deepEqual(await migrate(db, list), []);
    await db.query(`insert into widgets (id, name) values (1, 'w')`);
    const status = await migrationStatus(db, list);
    assert.equal(status.applied.length, 2);
    assert.equal(status.pending.length, 0);
  });

  it('applies only the new step when one is added', async () => {
    const list = await migrationsFrom(steps);
    await migrate(db, list.slice(0, 1));
    assert.deepEqual(
      (await migrate(db, list)).map((m) => m.version),
      [2],
    );
  });

  it('leaves nothing behind when a step fails', async () => {
    const list = await migrationsFrom({ ...steps, '0003_broken.sql': 'alter table nowhere add column x int;' });
    await assert.rejects(migrate(db, list), /nowhere/);
    const tables = await db.query(
      `select 1 from information_schema.tables where table_name in ('widgets', 'ap_migrations') and table_schema = current_schema()`,
    );
    assert.equal(tables.length, 0);
  });

  it('refuses to run when an applied step was edited', async () => {
    await migrate(db, await migrationsFrom(steps));
    const edited = await migrationsFrom({
      ...steps,
      '0002_add_name.sql': 'alter table widgets add column title text;',
    });
    await assert.rejects(migrate(db, edited), /was changed after it was applied/);
    await assert.rejects(migrationStatus(db, edited), /was changed after it was applied/);
  });

  it('refuses to run against a database newer than the build', async () => {
    await migrate(db, await migrationsFrom(steps));
    await assert.rejects(
      migrate(db, await migrationsFrom({ '0001_create_widgets.sql': steps['0001_create_widgets.sql'] })),
      /newer than this build/,
    );
  });

  it('applies each step exactly once when instances migrate at the same time', async () => {
    const list = await migrationsFrom(steps);
    const results = await Promise.all([migrate(db, list), migrate(db, list), migrate(db, list)]);
    assert.equal(results.flat().length, 2);
  });
});

describe('migrations on one PGlite data directory across restarts', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-pglite-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('keeps data and the ledger when the database is closed and reopened', async () => {
    const { openPglite } = await import('../../src/db/pglite.ts');
    const list = await migrationsFrom(steps);
    // A copy of a new cluster: what initdb would leave in the directory, seconds sooner.
    const dataDir = join(dir, 'db');
    await seedPgliteDirectory(dataDir, 'empty');
    const first = await openPglite({ dataDir });
    await migrate(first, list);
    await first.query(`insert into widgets (id, name) values (7, 'kept')`);
    const appliedBefore = (await migrationStatus(first, list)).applied;
    await first.close();

    const second = await openPglite({ dataDir });
    try {
      assert.deepEqual(await migrate(second, list), []);
      assert.deepEqual(await second.query('select id, name from widgets'), [{ id: 7, name: 'kept' }]);
      assert.deepEqual((await migrationStatus(second, list)).applied, appliedBefore);
    } finally {
      await second.close();
    }
  });
});
