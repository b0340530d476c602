import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';
import type { Database, EngineName } from '../../src/db/database.ts';
import { quoteIdent } from '../../src/db/identifiers.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';

/**
 * The two engines every integration test runs against. PGlite gets a fresh in-memory database,
 * loaded from a template cluster (see pgliteTemplate); PostgreSQL (TEST_DATABASE_URL, default the local server) gets a fresh schema, dropped on close,
 * so test files running in parallel never see each other's rows.
 */
export interface TestEngine {
  name: EngineName;
  open(): Promise<Database>;
  /** A fresh database with every migration applied. */
  openMigrated(): Promise<Database>;
}

export const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const engines: TestEngine[] = [
  {
    name: 'pglite',
    open: async () => openPglite({ dataDir: 'memory://', loadDataDir: await pgliteTemplate('empty') }),
    openMigrated: async () => openPglite({ dataDir: 'memory://', loadDataDir: await pgliteTemplate('migrated') }),
  },
  { name: 'postgres', open: openIsolatedPostgres, openMigrated: () => migrated(openIsolatedPostgres()) },
];

async function migrated(opening: Promise<Database>): Promise<Database> {
  const db = await opening;
  try {
    await migrate(db, await loadMigrations());
    return db;
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
}

/** What a PGlite template holds: a new cluster (what initdb leaves), or one with every migration applied. */
export type PgliteContents = 'empty' | 'migrated';

const templates = new Map<PgliteContents, Promise<Blob>>();

/**
 * A PGlite cluster as a tarball, made once per engine version (and set of migrations, for the
 * migrated one) and shared by the test processes through a file: creating an empty cluster
 * (initdb in WebAssembly) costs seconds, loading one costs a fraction of that. The file is
 * written whole and renamed, so a reader never sees half.
 */
function pgliteTemplate(contents: PgliteContents): Promise<Blob> {
  let template = templates.get(contents);
  if (!template) templates.set(contents, (template = loadOrMakeTemplate(contents)));
  return template;
}

async function loadOrMakeTemplate(contents: PgliteContents): Promise<Blob> {
  const file = `${await templatePath(contents)}.tar`;
  const cached = await readFile(file).catch(() => undefined);
  if (cached) return new Blob([cached]);
  const db = await openPglite({ dataDir: 'memory://' });
  try {
    if (contents === 'migrated') await migrate(db, await loadMigrations());
    const dump = await db.dumpDataDir();
    const partial = `${file}.${process.pid}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await db.close();
  }
}

/** Where a template is kept, without its extension: named by what it holds and the engine's and migrations' fingerprint. */
async function templatePath(contents: PgliteContents): Promise<string> {
  const migrations = contents === 'migrated' ? await loadMigrations() : [];
  // The engine's own files are part of the key: a new PGlite may lay its data directory out anew.
  const engine = await readFile(new URL(import.meta.resolve('@electric-sql/pglite')));
  const key = createHash('sha256')
    .update(engine)
    .update(contents)
    .update(migrations.map((m) => m.checksum).join())
    .digest('hex')
    .slice(0, 16);
  return path.join(os.tmpdir(), `ap-test-pglite-${contents}-${key}`);
}

/**
 * Fills `dataDir`, which must not exist yet, with a copy of a template cluster: for tests of a
 * process given a data directory (`ap serve --data-dir`, `ap crawl`) that are not about creating
 * one. Copying the files takes a fraction of a second; PGlite loading the tarball into a directory
 * takes seconds, so that is done once, into a directory beside the tarball, renamed into place whole.
 */
export async function seedPgliteDirectory(dataDir: string, contents: PgliteContents): Promise<void> {
  const template = await templatePath(contents);
  if (!existsSync(template)) {
    const partial = `${template}.${process.pid}`;
    const db = await openPglite({ dataDir: partial, loadDataDir: await pgliteTemplate(contents) });
    await db.close();
    // Another process may have put its copy in place meanwhile: either is as good.
    await rename(partial, template).catch(() => rm(partial, { recursive: true, force: true }));
  }
  await cp(template, dataDir, { recursive: true, errorOnExist: true, force: false });
}

/** The engine, its databases recording every statement run on them into `statements`. */
export function recordingStatements(inner: TestEngine, statements: string[]): TestEngine {
  const record = (db: Database) =>
    ({ ...db, engine: db.engine, query: (sql, params) => (statements.push(sql), db.query(sql, params)) }) as Database;
  return {
    name: inner.name,
    open: async () => record(await inner.open()),
    openMigrated: async () => record(await inner.openMigrated()),
  };
}

/**
 * Where a test changes rows as another instance or an operator's tool would: on PostgreSQL a
 * connection pool of its own on the same schema; on PGlite (one process) the database itself.
 * `close` leaves the given database open.
 */
export async function anotherInstance(db: Database): Promise<Database> {
  if (db.engine !== 'postgres') return { ...db, engine: db.engine, close: async () => {} };
  const [row] = await db.query<{ schema: string }>('select current_schema() as schema');
  return openPostgres({ url: postgresUrl, schema: row!.schema, poolMax: 2 });
}

/** Declares the suite once per engine; the engine's name leads each suite's title in the output. */
export function eachEngine(title: string, body: (engine: TestEngine) => void): void {
  for (const engine of engines) describe(`[${engine.name}] ${title}`, () => body(engine));
}

async function openIsolatedPostgres(): Promise<Database> {
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect().catch((err: Error) => {
    throw new Error(
      `PostgreSQL is not reachable at ${postgresUrl} (${err.message}); start it or set TEST_DATABASE_URL`,
    );
  });
  await admin.query(`create schema ${quoteIdent(schema)}`);
  const db = openPostgres({ url: postgresUrl, schema, poolMax: 4 });
  return {
    ...db,
    async close() {
      await db.close();
      await admin.query(`drop schema ${quoteIdent(schema)} cascade`);
      await admin.end();
    },
  };
}
