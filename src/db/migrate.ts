import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Database } from './database.ts';

/**
 * Versioned migrations, the same files for both engines. A file is `NNNN_what_it_does.sql` and
 * starts with a comment saying why. An applied migration is never edited: its checksum is kept and
 * a changed file stops the start-up, so every database reaches the same schema by the same steps.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export const migrationsDir = new URL('./migrations/', import.meta.url);

const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export async function loadMigrations(dir: URL = migrationsDir): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE.exec(file);
    if (!match) throw new Error(`Migration file ${file} is not named NNNN_name.sql`);
    const sql = await readFile(new URL(file, dir), 'utf8');
    const version = Number(match[1]);
    const expected = migrations.length + 1;
    if (version !== expected)
      throw new Error(`Migration ${file} should be numbered ${String(expected).padStart(4, '0')}`);
    migrations.push({ version, name: match[2]!, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
  applied_at: Date;
}

export interface MigrationStatus {
  applied: AppliedRow[];
  pending: Migration[];
}

const LEDGER = `create table if not exists ap_migrations (
  version integer primary key,
  name text not null,
  checksum text not null,
  applied_at timestamptz not null default now()
)`;

/** Applies pending migrations in one transaction, serialized across instances by an advisory lock. */
export async function migrate(db: Database, migrations: Migration[]): Promise<Migration[]> {
  return db.transaction(async (tx) => {
    // Keyed by schema so that databases sharing a server (tests, tenants) do not wait on each other.
    await tx.query(`select pg_advisory_xact_lock(hashtext(current_schema() || '.ap_migrations'))`);
    await tx.query(LEDGER);
    const applied = await tx.query<AppliedRow>(
      'select version, name, checksum, applied_at from ap_migrations order by version',
    );
    const pending = compare(applied, migrations);
    for (const m of pending) {
      await tx.exec(m.sql);
      await tx.query('insert into ap_migrations (version, name, checksum) values ($1, $2, $3)', [
        m.version,
        m.name,
        m.checksum,
      ]);
    }
    return pending;
  });
}

/** What is applied and what is pending, without changing anything (for readiness). */
export async function migrationStatus(db: Database, migrations: Migration[]): Promise<MigrationStatus> {
  const exists = await db.query<{ found: boolean }>(`select to_regclass('ap_migrations') is not null as found`);
  const applied = exists[0]?.found
    ? await db.query<AppliedRow>('select version, name, checksum, applied_at from ap_migrations order by version')
    : [];
  return { applied, pending: compare(applied, migrations) };
}

function compare(applied: AppliedRow[], migrations: Migration[]): Migration[] {
  for (const row of applied) {
    const known = migrations[row.version - 1];
    if (!known) throw new Error(`The database has migration ${row.version} (${row.name}), newer than this build knows`);
    if (known.checksum !== row.checksum) {
      throw new Error(
        `Migration ${row.version} (${row.name}) was changed after it was applied; add a new migration instead`,
      );
    }
  }
  return migrations.slice(applied.length);
}
