import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runAp, serveAp, type ServingAp } from '../support/cli.ts';
import { postgresUrl, seedPgliteDirectory } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { bearer } from '../support/identity.ts';
import { callProtected } from '../support/requests.ts';

/**
 * The operator's commands while `ap serve` runs: on PGlite they go through the server's control
 * socket (the embedded database belongs to the server's process), on PostgreSQL straight to the
 * shared database. Either way a key revoked from the command line stops working at once.
 */
function adminCommandsWhileServing(
  engine: string,
  setup: () => Promise<{ flags: string[]; teardown(): Promise<void> }>,
) {
  describe(`[${engine}] ap orgs, users and keys while ap serve runs`, () => {
    let server: ServingAp;
    let flags: string[];
    let teardown: () => Promise<void>;
    const ap = async (args: string[], input = '') => {
      const result = await runAp([...args, ...flags], {}, input);
      assert.equal(result.code, 0, `ap ${args.join(' ')}: ${result.stderr}`);
      return result.stdout;
    };

    before(async () => {
      ({ flags, teardown } = await setup());
      server = await serveAp(flags);
    });
    after(async () => {
      await server.stop();
      await teardown();
    });

    it('enrolls, lists and removes an agent of the catalog, which the running server lists at once', async () => {
      await ap(['orgs', 'create', 'agency']);
      const enrolled = JSON.parse(
        await ap([
          'agents',
          'enroll',
          'https://Sales.Agency.example/mcp',
          '--org',
          'agency',
          '--type',
          'sales',
          '--name',
          'Agency sales',
          '--json',
        ]),
      );
      assert.deepEqual(
        [enrolled.agent_url, enrolled.organization_slug, enrolled.visibility],
        ['https://sales.agency.example/mcp', 'agency', 'public'],
      );
      await ap([
        'agents',
        'enroll',
        'https://private.agency.example/mcp',
        '--org',
        'agency',
        '--type',
        'signals',
        '--name',
        'Agency signals',
        '--visibility',
        'private',
      ]);
      const listed = await ap(['agents', 'list', '--org', 'agency']);
      assert.match(listed, /https:\/\/private\.agency\.example\/mcp\s+signals\s+Agency signals\s+private\s+agency/);
      const publicList = await json(await fetch(`${server.url}/api/registry/agents`));
      assert.deepEqual(
        publicList.agents.map((a: { agent_url: string }) => a.agent_url),
        ['https://sales.agency.example/mcp'],
        'the private agent stays out of the public catalog',
      );
      await ap(['agents', 'remove', 'https://sales.agency.example/mcp']);
      assert.deepEqual((await json(await fetch(`${server.url}/api/registry/agents`))).agents, []);
      const refused = await runAp([
        'agents',
        'enroll',
        'https://x.agency.example/mcp',
        '--org',
        'nobody',
        '--type',
        'sales',
        '--name',
        'X',
        ...flags,
      ]);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /No organization has the slug "nobody"/);
    });

    it('creates an organization and a user, and a key that works against the running server', async () => {
      assert.match(await ap(['orgs', 'create', 'acme', '--name', 'Acme Corp']), /acme\s+Acme Corp\s+false\s+false/);
      const user = JSON.parse(
        await ap(
          ['users', 'create', 'ops@acme.test', '--org', 'acme', '--role', 'admin', '--json'],
          'correct horse battery staple\n',
        ),
      );
      assert.equal(user.email, 'ops@acme.test');
      assert.equal(user.password_hash, undefined);

      const created = JSON.parse(await ap(['keys', 'create', '--org', 'acme', '--name', 'deploys', '--json']));
      assert.match(created.key, /^ap_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      const res = await callProtected(server.url, bearer(created.key), 'cli-keys.example');
      assert.equal(res.status, 201);

      const listed = await ap(['keys', 'list', '--org', 'acme']);
      assert.ok(listed.includes(created.record.id) && listed.includes(created.record.prefix), listed);
      assert.ok(!listed.includes(created.key), 'the list never shows a key');

      assert.match(await ap(['keys', 'revoke', created.record.id]), /Revoked key/);
      const refused = await callProtected(server.url, bearer(created.key), 'cli-keys.example');
      assert.equal(refused.status, 401);
      assert.equal((await json(refused)).error, 'unauthorized');
      const revoked = JSON.parse(await ap(['keys', 'list', '--org', 'acme', '--json']));
      assert.ok(revoked[0].revoked_at);
    });

    it('explains refusals with a stable code and a non-zero exit', async () => {
      for (const [args, code] of [
        [['keys', 'create', '--org', 'no-such-org'], 'not_found'],
        [['keys', 'revoke', '00000000-0000-4000-8000-000000000000'], 'not_found'],
        [['keys', 'revoke', 'not-an-id'], 'invalid_request'],
        [['orgs', 'create', 'acme'], 'conflict'],
        [['orgs', 'create', 'Not A Slug!'], 'invalid_request'],
      ] as const) {
        const result = await runAp([...args, ...flags]);
        assert.equal(result.code, 1, args.join(' '));
        assert.match(result.stderr, new RegExp(`\\(${code}\\)`), args.join(' '));
      }
    });
  });
}

adminCommandsWhileServing('pglite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ap-admin-'));
  // A migrated cluster to serve from: creating one is what ap serve's own tests are about.
  await seedPgliteDirectory(join(dir, 'db'), 'migrated');
  return { flags: ['--data-dir', join(dir, 'db')], teardown: () => rm(dir, { recursive: true, force: true }) };
});

adminCommandsWhileServing('postgres', async () => {
  const database = `ap_admin_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return {
    flags: ['--database-url', url.href],
    async teardown() {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    },
  };
});
