import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openPglite } from '../../src/db/pglite.ts';
import { postgresUrl, seedPgliteDirectory } from '../support/engines.ts';
import { runAp, serveAp, untilReady, type ServingAp } from '../support/cli.ts';
import { mcpClient } from '../support/agents.ts';
import { json, type Json } from '../support/http.ts';

describe('ap command', () => {
  it('explains itself with --help', async () => {
    const { code, stdout } = await runAp(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /serve \[options\]\s+Run the registry HTTP server/);
    assert.match(stdout, /migrate \[options\]\s+Apply pending database migrations/);
    const serveHelp = await runAp(['serve', '--help']);
    for (const flag of ['--port', '--host', '--database-url', '--data-dir'])
      assert.match(serveHelp.stdout, new RegExp(flag));
  });

  it('rejects bad configuration with exit code 2 and a clear message', async () => {
    const { code, stderr } = await runAp(['serve', '--port', 'eighty']);
    assert.equal(code, 2);
    assert.match(stderr, /ap: port must be an integer/);
  });

  it('refuses to start on a malformed brand deny list, with exit code 2 naming the setting', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-deny-'));
    after(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'brands.json');
    await writeFile(path, '[{"name": "paypal",');
    const { code, stderr } = await runAp(['serve', '--port', '0', '--data-dir', await migratedDataDir(dir)], {
      AP_BRAND_DENY_LIST: path,
    });
    assert.equal(code, 2);
    assert.match(stderr, /ap: AP_BRAND_DENY_LIST: .*brands\.json.*not valid JSON/);
  });
});

/** The distinct permission modes of a directory and everything under it. */
async function modesUnder(dir: string): Promise<string[]> {
  const entries = [
    dir,
    ...(await readdir(dir, { recursive: true, withFileTypes: true })).map((e) => join(e.parentPath, e.name)),
  ];
  const modes = await Promise.all(entries.map(async (entry) => ((await stat(entry)).mode & 0o777).toString(8)));
  return [...new Set(modes)].sort();
}

describe('[pglite] ap serve on a data directory', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ap-serve-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('serves, shuts down cleanly on SIGTERM, and keeps its data across a restart', async () => {
    // As npm start does: the test deployment's agents too (one start serves both checks).
    const first = await serveAp(['--data-dir', dataDir], { AGENTS: 'true' });
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    await untilReady(first);
    await servesTheSalesAgent(first);
    const ready = await json(await fetch(`${first.url}/readyz`));
    assert.equal(ready.engine, 'pglite');
    assert.equal(await first.stop('SIGTERM'), 0);
    assert.ok(
      first.logs.some((l) => l.includes('"shutting down"')),
      'logs its shutdown',
    );

    // Write between runs, as an operator's tool would, then make sure the server keeps it.
    const db = await openPglite({ dataDir });
    await db.query(`create table if not exists operator_notes (note text)`);
    await db.query(`insert into operator_notes values ('survives restarts')`);
    const ledger = await db.query('select * from ap_migrations order by version');
    await db.close();

    // The files hold the registry's keys and, with no AP_SIGNING_KEY_SECRET, the agents' private keys.
    assert.deepEqual(await modesUnder(dataDir), ['600', '700'], 'owner-only, whatever the umask');
    const unsealed = (logs: string[], level: number) =>
      logs.filter((l) => l.includes('AP_SIGNING_KEY_SECRET is not set') && l.includes(`"level":${level}`));
    assert.equal(unsealed(first.logs, 40).length, 1, 'on loopback, a warning');

    // Listening beyond loopback without a sealing secret is said at error level.
    const second = await serveAp(['--data-dir', dataDir, '--host', '0.0.0.0'], { AGENTS: 'true' });
    await untilReady(second);
    // A third on the data directory the second holds is refused before it opens the database.
    const third = await runAp(['serve', '--port', '0', '--data-dir', dataDir]);
    assert.equal(third.code, 2, third.stderr);
    assert.match(third.stderr, /the data directory .* is in use by another ap serve/);
    assert.equal((await fetch(`${second.url.replace('0.0.0.0', '127.0.0.1')}/readyz`)).status, 200);
    assert.equal(await second.stop('SIGINT'), 0);
    assert.match(
      unsealed(second.logs, 50)[0] ?? '',
      /listens on 0\.0\.0\.0: the agents' private signing keys are stored UNSEALED/,
    );

    const reopened = await openPglite({ dataDir });
    try {
      assert.deepEqual(await reopened.query('select note from operator_notes'), [{ note: 'survives restarts' }]);
      assert.deepEqual(await reopened.query('select * from ap_migrations order by version'), ledger);
    } finally {
      await reopened.close();
    }
  });

  it('migrates from the command line', async () => {
    const { code, stdout } = await runAp(['migrate', '--data-dir', dataDir]);
    assert.equal(code, 0);
    assert.match(stdout, /^pglite: (up to date|applied )/);
  });
});

describe('[postgres] ap serve with DATABASE_URL', () => {
  const database = `ap_cli_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;

  before(async () => {
    await admin.connect();
    await admin.query(`drop database if exists ${database}`);
    await admin.query(`create database ${database}`);
  });
  after(async () => {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('serves from PostgreSQL named by the environment', async () => {
    const server = await serveAp([], { DATABASE_URL: url.href });
    try {
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      await untilReady(server);
      assert.equal((await json(await fetch(`${server.url}/readyz`))).engine, 'postgres');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('takes --database-url over the environment and migrates', async () => {
    const { code, stdout } = await runAp(['migrate', '--database-url', url.href], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    assert.equal(code, 0);
    assert.match(stdout, /^postgres: /);
  });
});

describe('[pglite] ap serve with the test deployment', () => {
  it('refuses to start on a malformed catalog, with exit code 2 naming the file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-catalog-'));
    after(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'catalog.yaml');
    await writeFile(path, 'products:\n  - product_id: broken\n    name: [unclosed\n');
    const { code, stderr } = await runAp(['serve', '--port', '0', '--data-dir', await migratedDataDir(dir)], {
      AGENTS: 'true',
      SALES_CATALOG: path,
    });
    assert.equal(code, 2);
    assert.match(stderr, /ap: SALES_CATALOG: .*catalog\.yaml:\d+/);
  });
});

/**
 * A migrated data directory inside `dir`, for a start refused for its configuration: the server
 * reads the files settings name as it builds, after opening the database, and creating a cluster
 * there (initdb, then the migrations, in memory or not) would cost each refusal seconds.
 */
async function migratedDataDir(dir: string): Promise<string> {
  const dataDir = join(dir, 'db');
  await seedPgliteDirectory(dataDir, 'migrated');
  return dataDir;
}

/** The sales agent answers at /sales/mcp to the public credential the server printed, and no one else. */
async function servesTheSalesAgent(server: ServingAp): Promise<void> {
  const line = server.logs.find((l) => l.includes('agents serving at'));
  assert.ok(line, 'logs where its agents are');
  assert.match(line, new RegExp(`${server.url}/sales/mcp`));
  const credential = /Authorization: Bearer (\S+?)"/.exec(line)?.[1];
  assert.equal(credential, 'ap-test-deployment-public');
  const client = await mcpClient(server.url, '/sales', { authorization: `Bearer ${credential}` });
  try {
    const result = (await client.callTool({
      name: 'get_products',
      arguments: { brief: 'outdoor adventure video', brand: { domain: 'trailhead-coffee.example' } },
    })) as Json;
    const answer = JSON.parse(result.content[0].text as string) as Json;
    assert.equal(result.isError, undefined);
    assert.ok(
      (answer.products as Json[]).some((p) => p.product_id === 'tm_outdoor_video'),
      'the demo catalog sells Trail Magazine’s pre-roll',
    );
  } finally {
    await client.close();
  }
  const anonymous = await fetch(`${server.url}/sales/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
  assert.equal(anonymous.status, 401);
}
