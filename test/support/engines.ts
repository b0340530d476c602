import { randomBytes } from 'node:crypto';
import { describe } from 'node:test';
import pg from 'pg';
import type { Database, EngineName } from '../../src/db/database.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { quoteIdent } from '../../src/db/identifiers.ts';
import { openPostgres } from '../../src/db/postgres.ts';

/**
 * The two engines every integration test runs against. PGlite gets a fresh in-memory database;
 * PostgreSQL (TEST_DATABASE_URL, default the local server) gets a fresh schema, dropped on close,
 * so test files running in parallel never see each other's rows.
 */
export interface TestEngine {
  name: EngineName;
  open(): Promise<Database>;
}

export const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const engines: TestEngine[] = [
  { name: 'pglite', open: () => openPglite({ dataDir: 'memory://' }) },
  { name: 'postgres', open: openIsolatedPostgres },
];

/** Declares the suite once per engine; the engine's name leads each suite's title in the output. */
export function eachEngine(title: string, body: (engine: TestEngine) => void): void {
  for (const engine of engines) describe(`[${engine.name}] ${title}`, () => body(engine));
}

async function openIsolatedPostgres(): Promise<Database> {
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect().catch((err: Error) => {
    throw new Error(`PostgreSQL is not reachable at ${postgresUrl} (${err.message}); start it or set TEST_DATABASE_URL`);
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
