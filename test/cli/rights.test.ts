import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAp } from '../support/cli.ts';
import { openSharedSchema, type SharedSchema } from '../support/shared-schema.ts';

describe('[postgres] ap rights revoke', () => {
  let shared: SharedSchema;
  before(async () => {
    shared = await openSharedSchema();
    assert.equal((await runAp(['migrate'], { DATABASE_URL: shared.databaseUrl })).code, 0);
    // A grant as acquire_rights records it.
    await shared.db.query(
      `insert into brand_rights_grants (grant_id, offering_id, owner, brand_id, status, exclusive, terms, campaign, buyer,
         revocation_webhook, created_at, updated_at)
       values ('rg_cli', 'volt_the_fox', 'org:x', 'halcyon-ev.example', 'acquired', false,
         '{"uses": ["likeness", "voice"]}', '{"description": "x", "uses": ["likeness", "voice"]}', '{"domain": "b.example"}',
         '{"url": "https://buyer.example/revocations"}', now(), now())`,
    );
  });
  after(() => shared.close());

  it('revokes some uses, then the grant, queuing a notice to the buyer each time', async () => {
    const revoke = (...args: string[]) =>
      runAp(['rights', 'revoke', 'rg_cli', ...args], { DATABASE_URL: shared.databaseUrl });
    const partial = await revoke('--reason', 'Voice withdrawn', '--uses', 'voice');
    assert.equal(partial.code, 0, partial.stderr);
    assert.match(partial.stdout, /keeps likeness/);
    const whole = await revoke('--reason', 'Ended', '--json');
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal((JSON.parse(whole.stdout) as { status: string }).status, 'revoked');
    const queued = await shared.db.query<{ url: string; reason: string }>(
      `select url, payload->>'reason' as reason from webhook_deliveries order by next_attempt_at`,
    );
    assert.deepEqual(queued.map((q) => [q.url, q.reason]).sort(), [
      ['https://buyer.example/revocations', 'Ended'],
      ['https://buyer.example/revocations', 'Voice withdrawn'],
    ]);
    const again = await revoke('--reason', 'Again');
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /is revoked/);
  });
});
