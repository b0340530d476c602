import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { runOnce } from '../../../../src/agents/runtime/idempotency/service.ts';
import type { Database } from '../../../../src/db/database.ts';
import { AgentError } from '../../../../src/protocol/errors.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';

eachEngine('idempotency records', (engine) => {
  let db: Database;
  const settings = { clock: new ManualClock(), replayTtlSeconds: 86_400 };
  const scope = () => ({ tenant: 't', principal: 'api_key:k', account: '', key: randomUUID() });

  before(async () => {
    db = await engine.openMigrated();
  });
  after(() => db.close());

  it('answers a duplicate that arrives while the first runs without waiting for it (PostgreSQL), and replays it once done', async () => {
    const s = scope();
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const execute = async () => {
      runs++;
      started();
      await gate;
      return { made: 1 };
    };
    const first = runOnce(db, settings, s, 'make', { n: 1 }, execute);
    await running;
    const duplicate = runOnce(db, settings, s, 'make', { n: 1 }, execute);
    if (engine.name === 'postgres') {
      const error = await duplicate.then(
        () => assert.fail('the duplicate ran'),
        (err: unknown) => err as AgentError,
      );
      assert.equal(error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(error.retryAfter, 1);
      release();
      assert.deepEqual(await first, { made: 1, replayed: false });
    } else {
      // PGlite runs one transaction at a time: the duplicate is answered after the first commits.
      release();
      assert.deepEqual(await first, { made: 1, replayed: false });
      assert.deepEqual(await duplicate, { made: 1, replayed: true });
    }
    assert.deepEqual(await runOnce(db, settings, s, 'make', { n: 1 }, execute), { made: 1, replayed: true });
    assert.equal(runs, 1);
  });

  it('leaves context out of the payload compared: a retry may carry a different one', async () => {
    const s = scope();
    await runOnce(db, settings, s, 'make', { n: 1, context: { trace: 'a' } }, async () => ({ made: 1 }));
    const again = await runOnce(db, settings, s, 'make', { n: 1, context: { trace: 'b' } }, async () =>
      assert.fail('ran twice'),
    );
    assert.equal(again['replayed'], true);
  });

  it('answers a conflict with no part of either payload', async () => {
    const s = scope();
    await runOnce(db, settings, s, 'make', { secret_name: 'first-payload-value' }, async () => ({ made: 1 }));
    const error = await runOnce(db, settings, s, 'make', { secret_name: 'second-payload-value' }, async () =>
      assert.fail('ran'),
    ).then(
      () => assert.fail('no conflict'),
      (err: unknown) => err as AgentError,
    );
    assert.equal(error.code, 'IDEMPOTENCY_CONFLICT');
    const said = JSON.stringify({ message: error.message, field: error.field, suggestion: error.suggestion });
    assert.doesNotMatch(said, /payload-value|secret_name/);
  });

  it('records nothing for a run that fails, so its key runs again', async () => {
    const s = scope();
    await assert.rejects(
      runOnce(db, settings, s, 'make', {}, async (tx) => {
        await tx.query(
          `insert into idempotency_records (tenant, principal, account, idempotency_key, task, payload_hash, state, created_at) values ('other', 'p', '', $1, 'x', 'h', 'succeeded', now())`,
          [randomUUID()],
        );
        throw new Error('boom');
      }),
    );
    assert.equal(
      (await db.query(`select 1 from idempotency_records where tenant = 'other'`)).length,
      0,
      "the failed run's writes rolled back",
    );
    assert.deepEqual(await runOnce(db, settings, s, 'make', {}, async () => ({ made: 2 })), {
      made: 2,
      replayed: false,
    });
  });
});
