import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { revokeKey } from '../../src/auth/api-keys/service.ts';
import type { Database } from '../../src/db/database.ts';
import pg from 'pg';
import { quoteIdent } from '../../src/db/identifiers.ts';
import { anotherInstance, eachEngine, postgresUrl, recordingStatements } from '../support/engines.ts';
import { accessToken, bearer, createApiKeyFor, seedOrganization, seedUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { addWhoami, whoami } from './helpers.ts';

/**
 * Verified credentials are kept in memory, and yet every change to them is seen by the very next
 * request, as when each request read the database. On PostgreSQL the changes are made through a
 * connection pool of their own, as another instance or an operator's tool would.
 */
eachEngine('the credential cache', (engine) => {
  let server: TestServer;
  let other: Database;
  const statements: string[] = [];

  before(async () => {
    server = await startTestServer(recordingStatements(engine, statements), { extend: addWhoami });
    other = await anotherInstance(server.db);
  });
  after(async () => {
    await other.close();
    await server.close();
  });

  /** The statements about credentials run while `work` ran. */
  const credentialReads = async (work: () => Promise<unknown>) => {
    const from = statements.length;
    await work();
    return statements.slice(from).filter((sql) => /api_keys|organizations|memberships|oauth_records|users/.test(sql));
  };

  it('authenticates a key already seen without reading the database', async () => {
    const key = await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug);
    assert.equal((await whoami(server.url, bearer(key))).status, 200);
    assert.deepEqual(await credentialReads(() => whoami(server.url, bearer(key))), []);
  });

  it('refuses a key on the very next request after it is revoked elsewhere, every time', async () => {
    const org = await seedOrganization(server.db);
    for (let i = 0; i < 10; i++) {
      const key = await createApiKeyFor(server.db, org.slug);
      const seen = await whoami(server.url, bearer(key));
      assert.equal(seen.status, 200);
      assert.equal((await whoami(server.url, bearer(key))).status, 200, 'answered from the cache');
      assert.ok(await revokeKey(other, seen.body.subject));
      assert.equal((await whoami(server.url, bearer(key))).status, 401, `round ${i}: the revoked key was accepted`);
    }
  });

  // PGlite has one session, whose search path is the app's; an operator's own session exists only on PostgreSQL.
  if (engine.name === 'postgres')
    it('refuses a key revoked by an operator’s session that names the table by its schema, not its search path', async () => {
      const [{ schema }] = (await server.db.query<{ schema: string }>('select current_schema() as schema')) as [
        { schema: string },
      ];
      const key = await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug);
      const seen = await whoami(server.url, bearer(key));
      assert.equal((await whoami(server.url, bearer(key))).status, 200, 'answered from the cache');
      const operator = new pg.Client({ connectionString: postgresUrl });
      await operator.connect();
      try {
        await operator.query(`update ${quoteIdent(schema)}.api_keys set revoked_at = now() where id = $1`, [
          seen.body.subject,
        ]);
      } finally {
        await operator.end();
      }
      assert.equal((await whoami(server.url, bearer(key))).status, 401, 'the revoked key was accepted');
    });

  it('gives a key its organization’s new standing on the next request', async () => {
    const org = await seedOrganization(server.db);
    const key = await createApiKeyFor(server.db, org.slug);
    assert.equal((await whoami(server.url, bearer(key))).body.organization.apiTier, false);
    await other.query('update organizations set api_tier = true where slug = $1', [org.slug]);
    assert.equal((await whoami(server.url, bearer(key))).body.organization.apiTier, true);
  });

  it('follows a user’s memberships and ends their tokens with their grant, on the next request', async () => {
    const first = await seedOrganization(server.db);
    const alice = await seedUser(server.db);
    const token = await accessToken(server.url, alice);
    const headers = { ...bearer(token), 'ap-organization': first.slug };
    assert.equal((await whoami(server.url, headers)).body.organization, undefined);
    assert.deepEqual(await credentialReads(() => whoami(server.url, headers)), [], 'answered from the cache');
    await other.query(
      `insert into memberships (organization_id, user_id, role) select id, $2, 'member' from organizations where slug = $1`,
      [first.slug, alice.user.id],
    );
    assert.equal((await whoami(server.url, headers)).body.organization.slug, first.slug);
    await other.query(`delete from oauth_records where model = 'Grant'`);
    assert.equal((await whoami(server.url, headers)).status, 401);
  });
});
