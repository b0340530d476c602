import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../../src/db/database.ts';
import { currentKey, publishedKeys, rotate, type KeySettings } from '../../../../src/agents/runtime/keys/store.ts';
import { testTenant } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';

const secret = 'a-test-secret-that-is-at-least-32-characters';

eachEngine('agent signing keys', (engine) => {
  describe('store', () => {
    let db: Database;
    const clock = new ManualClock();
    const settings: KeySettings = { alg: 'ed25519', secret, clock, publishWindowSeconds: 360 };

    before(async () => {
      db = await engine.openMigrated();
    });
    after(() => db.close());

    it('makes one key however many callers race for the first', async () => {
      const keys = await Promise.all(Array.from({ length: 5 }, () => currentKey(db, settings)));
      assert.equal(new Set(keys.map((k) => k.kid)).size, 1);
      assert.equal((await db.query('select 1 from agent_signing_keys')).length, 1);
    });

    it('seals the private key at rest and opens it only with the same secret', async () => {
      const [row] = await db.query<{ private_key: string }>('select private_key from agent_signing_keys');
      const key = await currentKey(db, settings);
      assert.match(row!.private_key, /^sealed:v1:/);
      assert.ok(!row!.private_key.includes(String(key.privateJwk.d)));
      await assert.rejects(
        currentKey(db, { ...settings, secret: 'another-secret-that-is-at-least-32-chars' }),
        /sealed with another secret/,
      );
      await assert.rejects(currentKey(db, { ...settings, secret: undefined }), /AP_SIGNING_KEY_SECRET/);
    });

    it('keeps a rotated key published until its signatures can no longer be valid', async () => {
      const old = await currentKey(db, settings);
      const next = await rotate(db, settings);
      assert.notEqual(next.kid, old.kid);
      assert.equal((await currentKey(db, settings)).kid, next.kid);
      const kids = async () => (await publishedKeys(db, settings)).map((k) => (k as { kid: string }).kid).sort();
      assert.deepEqual(await kids(), [next.kid, old.kid].sort());
      clock.advance(361_000);
      assert.deepEqual(await kids(), [next.kid]);
    });
  });

  describe('published', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(engine, {
        deps: { tenants: [testTenant().tenant] },
        env: { AP_SIGNING_KEY_SECRET: secret },
      });
    });
    after(() => server.close());

    it('serves the JWKS with keys marked for webhook signing, and a brand.json pointing at it', async () => {
      const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as Json;
      assert.equal(jwks.keys.length, 1);
      const [key] = jwks.keys;
      assert.deepEqual(
        { use: key.use, key_ops: key.key_ops, ap_use: key.ap_use, alg: key.alg, kty: key.kty, crv: key.crv },
        { use: 'sig', key_ops: ['verify'], ap_use: 'webhook-signing', alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519' },
      );
      assert.equal(key.d, undefined, 'no private part');
      const brand = (await (await fetch(`${server.url}/.well-known/brand.json`)).json()) as Json;
      assert.deepEqual(brand.agents, [
        {
          type: 'sales',
          id: 'test',
          url: `${server.url}/test/mcp`,
          description: 'Test tasks for the agent runtime.',
          jwks_uri: `${server.url}/.well-known/jwks.json`,
        },
      ]);
    });
  });
});
