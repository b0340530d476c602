import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { pruneAgentRecords } from '../../../src/agents/runtime/housekeeping.ts';
import type { Database } from '../../../src/db/database.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';

const day = 86_400_000;

eachEngine('agent housekeeping', (engine) => {
  let db: Database;
  const clock = new ManualClock();
  const ago = (days: number) => new Date(clock.now().getTime() - days * day);

  before(async () => {
    db = await engine.openMigrated();
  });
  after(() => db.close());

  it('deletes tombstones, finished tasks and settled webhooks after seven replay windows, and nothing unfinished', async () => {
    const idempotency = (at: Date) =>
      db.query(
        `insert into idempotency_records (tenant, principal, account, idempotency_key, task, payload_hash, state, created_at) values ('t', 'p', '', $1, 'x', 'h', 'succeeded', $2)`,
        [randomUUID(), at],
      );
    const task = (status: string, at: Date) =>
      db.query(
        `insert into agent_tasks (task_id, tenant, principal, task, arguments, status, created_at, updated_at) values ($1, 't', 'p', 'x', '{}', $2, $3, $3)`,
        [randomUUID(), status, at],
      );
    const webhook = (state: string, at: Date) =>
      db.query(
        `insert into webhook_deliveries (id, tenant, task_id, url, idempotency_key, payload, state, next_attempt_at, created_at) values ($1, 't', $2, 'https://b.example/h', $3, '{}', $4, $5, $5)`,
        [randomUUID(), randomUUID(), randomUUID(), state, at],
      );
    await idempotency(ago(8));
    await idempotency(ago(6));
    await task('completed', ago(8));
    await task('failed', ago(8));
    await task('working', ago(8));
    await task('completed', ago(6));
    await webhook('delivered', ago(8));
    await webhook('failed', ago(8));
    await webhook('pending', ago(8));
    await webhook('delivered', ago(6));

    assert.deepEqual(await pruneAgentRecords(db, clock, 86_400), { idempotency: 1, tasks: 2, webhooks: 2 });
    const left = async (table: string, column: string) =>
      (await db.query<{ v: string }>(`select ${column} as v from ${table} order by 1`)).map((r) => r.v);
    assert.deepEqual(await left('agent_tasks', 'status'), ['completed', 'working']);
    assert.deepEqual(await left('webhook_deliveries', 'state'), ['delivered', 'pending']);
    assert.equal((await left('idempotency_records', 'task')).length, 1);
  });
});
