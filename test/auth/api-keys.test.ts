import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createKey, revokeKey } from '../../src/auth/api-keys/service.ts';
import { mintKey } from '../../src/auth/api-keys/key-format.ts';
import { envVars } from '../../src/config.ts';
import { eachEngine } from '../support/engines.ts';
import { bearer, seedOrganization } from '../support/identity.ts';
import { adminKey, asAdmin, startTestServer, type TestServer } from '../support/server.ts';
import { addWhoami, callProtected, summary, whoami } from './helpers.ts';

/** Organization API keys and the operator's AP_ADMIN_KEY, as Bearer credentials over HTTP. */
eachEngine('API keys', (engine) => {
  let server: TestServer;
  let org: string;
  before(async () => {
    server = await startTestServer(engine, { extend: addWhoami });
    org = (await seedOrganization(server.db)).slug;
  });
  after(() => server.close());

  const unauthorized = async (res: Response) => {
    const seen = await summary(res);
    assert.equal(seen.status, 401, JSON.stringify(seen));
    assert.equal((seen.body as { error: string }).error, 'unauthorized');
    assert.match(seen.challenge ?? '', /^Bearer .*error="invalid_token"/);
  };
  const rowOf = async (id: string) => {
    const [row] = await server.db.query<Record<string, unknown>>(`select * from api_keys where id = $1`, [id]);
    return row!;
  };

  describe('an organization key', () => {
    it('is stored only as a hash', async () => {
      const { key, record } = await createKey(server.db, { organizationSlug: org, name: 'storage check' });
      assert.match(key, /^ap_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      const secret = key.split('_').slice(2).join('_');
      const row = await rowOf(record.id);
      for (const [column, value] of Object.entries(row)) {
        const text =
          value instanceof Uint8Array
            ? Buffer.from(value).toString('latin1') + Buffer.from(value).toString('hex')
            : JSON.stringify(value);
        assert.ok(!text?.includes(secret), `${column} holds the key's secret`);
      }
      assert.equal(
        Buffer.from(row.key_hash as Uint8Array).toString('hex'),
        createHash('sha256').update(key).digest('hex'),
      );
      assert.equal(row.prefix, key.slice(3, 15), 'only the public prefix is kept in clear');
      assert.equal(row.last_used_at, null);
      assert.equal('key' in record, false, 'the record returned does not carry the key either');
    });

    it('works as a Bearer credential for its organization, and records its use', async () => {
      const { key, record } = await createKey(server.db, { organizationSlug: org, name: 'use check', role: 'admin' });
      const { status, body } = await whoami(server.url, bearer(key));
      assert.equal(status, 200);
      assert.equal(body.kind, 'api_key');
      assert.equal(body.subject, record.id);
      assert.equal(body.organization.slug, org);
      assert.equal(body.organization.role, 'admin');
      assert.equal(body.organization.registryAdmin, false);
      const res = await callProtected(server.url, bearer(key));
      assert.equal(res.status, 201, JSON.stringify(await summary(res)));
      const row = await rowOf(record.id);
      assert.notEqual(row.last_used_at, null);
      assert.ok(Date.now() - Date.parse(String(row.last_used_at)) < 60_000);
    });

    it('answers 401 at once when revoked', async () => {
      const { key, record } = await createKey(server.db, { organizationSlug: org, name: 'revocation check' });
      assert.equal((await callProtected(server.url, bearer(key))).status, 201);
      assert.ok(await revokeKey(server.db, record.id));
      await unauthorized(await callProtected(server.url, bearer(key)));
      await unauthorized(await fetch(`${server.url}/test/whoami`, { headers: bearer(key) }));
    });

    it('is not accepted as a member of the registry administrators', async () => {
      const { key } = await createKey(server.db, { organizationSlug: org, name: 'not admin' });
      const { status, body } = await whoami(server.url, bearer(key), '/test/registry-admin');
      assert.equal(status, 403);
      assert.equal(body.error, 'forbidden');
    });
  });

  describe('credentials that are no key', () => {
    it('answers 401 to a malformed key', async () => {
      for (const credential of ['nonsense', 'ap_', 'ap_0123456789ab_short', 'ap_ZZZZZZZZZZZZ_' + 'a'.repeat(43)]) {
        await unauthorized(await callProtected(server.url, bearer(credential)));
      }
    });

    it('answers 401 to a well-formed key that was never issued', async () => {
      await unauthorized(await callProtected(server.url, bearer(mintKey().key)));
    });

    it('answers 401 to an issued key’s prefix with another secret', async () => {
      const { key } = await createKey(server.db, { organizationSlug: org, name: 'prefix check' });
      const forged = `${key.slice(0, 16)}${key.slice(16).split('').reverse().join('')}`;
      assert.notEqual(forged, key);
      await unauthorized(await callProtected(server.url, bearer(forged)));
    });

    it('answers 401 to another authorization scheme', async () => {
      const { key } = await createKey(server.db, { organizationSlug: org, name: 'scheme check' });
      await unauthorized(await callProtected(server.url, { authorization: `Basic ${key}` }));
      await unauthorized(await callProtected(server.url, { authorization: 'Bearer' }));
    });
  });

  describe('AP_ADMIN_KEY', () => {
    it('is a key of the admin organization, a registry administrator', async () => {
      const { status, body } = await whoami(server.url, asAdmin, '/test/registry-admin');
      assert.equal(status, 200);
      assert.equal(body.kind, 'api_key');
      assert.equal(body.displayName, 'admin/AP_ADMIN_KEY');
      assert.equal(body.organization.slug, 'admin');
      assert.equal(body.organization.role, 'admin');
      assert.equal(body.organization.registryAdmin, true);
      assert.equal((await callProtected(server.url, asAdmin)).status, 201);
    });

    it('is stored only as a hash', async () => {
      const rows = await server.db.query<{ name: string; key_hash: Uint8Array }>(
        `select k.name, k.key_hash from api_keys k join organizations o on o.id = k.organization_id where o.slug = 'admin'`,
      );
      assert.equal(rows.length, 1);
      assert.equal(Buffer.from(rows[0]!.key_hash).toString('hex'), createHash('sha256').update(adminKey).digest('hex'));
      const all = JSON.stringify(await server.db.query(`select id, organization_id, name, prefix, role from api_keys`));
      assert.ok(!all.includes(adminKey));
    });

    it('is documented as an API key of the admin organization', async () => {
      assert.match(envVars.AP_ADMIN_KEY.meaning, /admin organization/);
      const readme = await readFile(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
      const row = readme.split('\n').find((line) => line.startsWith('| `AP_ADMIN_KEY` |'));
      assert.ok(row, 'docs/configuration.md lists AP_ADMIN_KEY in its table');
      assert.match(row, /API key\b.*\bof the `admin` organization/);
      assert.match(row, /registry operator/);
    });
  });
});
