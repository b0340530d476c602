import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAp } from '../support/cli.ts';
import { openSharedSchema, type SharedSchema } from '../support/shared-schema.ts';

describe('[postgres] ap signing-keys rotate', () => {
  let shared: SharedSchema;
  const secret = 'a-cli-test-secret-that-is-at-least-32-chars';
  before(async () => {
    shared = await openSharedSchema();
    assert.equal((await runAp(['migrate'], { DATABASE_URL: shared.databaseUrl })).code, 0);
  });
  after(() => shared.close());

  it('retires the current key and makes a sealed new one, printing its kid', async () => {
    const ap = async () => {
      const result = await runAp(['signing-keys', 'rotate', '--json'], {
        DATABASE_URL: shared.databaseUrl,
        AP_SIGNING_KEY_SECRET: secret,
        AGENT_SIGNING_ALG: 'ecdsa-p256-sha256',
      });
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as { kid: string; alg: string };
    };
    const first = await ap();
    const second = await ap();
    assert.notEqual(first.kid, second.kid);
    assert.equal(second.alg, 'ecdsa-p256-sha256');
    const rows = await shared.db.query<{ kid: string; retired: boolean; sealed: boolean }>(
      `select kid, retired_at is not null as retired, private_key like 'sealed:v1:%' as sealed from agent_signing_keys order by created_at`,
    );
    assert.deepEqual(rows, [
      { kid: first.kid, retired: true, sealed: true },
      { kid: second.kid, retired: false, sealed: true },
    ]);
  });

  it('rotates the governance key apart from the webhook key, always Ed25519', async () => {
    const rotate = async (...extra: string[]) => {
      const result = await runAp(['signing-keys', 'rotate', '--json', ...extra], {
        DATABASE_URL: shared.databaseUrl,
        AP_SIGNING_KEY_SECRET: secret,
        AGENT_SIGNING_ALG: 'ecdsa-p256-sha256',
      });
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as { kid: string; alg: string };
    };
    const governance = await rotate('--governance');
    assert.equal(governance.alg, 'ed25519');
    assert.match(governance.kid, /^ap-governance-/);
    const rows = await shared.db.query<{ purpose: string; live: number }>(
      `select purpose, count(*) filter (where retired_at is null)::int as live from agent_signing_keys group by purpose order by purpose`,
    );
    assert.deepEqual(rows, [
      { purpose: 'governance-signing', live: 1 },
      { purpose: 'webhook-signing', live: 1 },
    ]);
  });
});
