import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { listKeys, revokeKey } from '../../../src/auth/api-keys/service.ts';
import type { ServingAp } from '../../support/cli.ts';
import { bearer, createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { callProtected } from '../../support/requests.ts';
import { openSharedSchema, type SharedSchema } from '../../support/shared-schema.ts';

/** A credential-required call with `credential`: 201 when it is accepted. */
const save = (server: ServingAp, credential: string) => callProtected(server.url, bearer(credential));

async function assertRefused(res: Response): Promise<void> {
  assert.equal(res.status, 401);
  assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  assert.equal(((await res.json()) as { error: string }).error, 'unauthorized');
}

describe('[postgres] a key revoked through one process is refused by another on the same PostgreSQL', () => {
  let shared: SharedSchema;
  before(async () => {
    shared = await openSharedSchema();
  });
  after(() => shared.close());

  it('refuses an organization API key on every process as soon as it is revoked', async () => {
    const [a, b] = await Promise.all([shared.serve(), shared.serve()]);
    const org = await seedOrganization(shared.db);
    const key = await createApiKeyFor(shared.db, org.slug);
    assert.equal((await save(b!, key)).status, 201, 'accepted by B');
    assert.equal((await save(a!, key)).status, 201, 'accepted by A');

    // What process A's CLI or dashboard does: revoke on a connection of its own.
    const [record] = await listKeys(shared.db, org.id);
    assert.ok(await revokeKey(shared.db, record!.id));

    await assertRefused(await save(b!, key));
    await assertRefused(await save(a!, key));
  });

  it('replaces the AP_ADMIN_KEY of an earlier process with a later one’s, on every process', async () => {
    const k1 = `k1-${randomBytes(16).toString('hex')}`;
    const k2 = `k2-${randomBytes(16).toString('hex')}`;
    const first = await shared.serve({ AP_ADMIN_KEY: k1 });
    assert.equal((await save(first, k1)).status, 201, 'k1 accepted before the second process starts');
    const second = await shared.serve({ AP_ADMIN_KEY: k2 });
    for (const server of [first, second]) {
      await assertRefused(await save(server, k1));
      assert.equal((await save(server, k2)).status, 201);
    }
  });
});
