import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { nextStatus } from '../../../../src/agents/sales/media-buys/flight-pass.ts';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner } from '../creatives/harness.ts';
import { buyer, createArgs, day, startSales, type Buyer } from './harness.ts';

it('moves a waiting buy to active at its start, and every unfinished buy to completed at its end', () => {
  const flight = { start: new Date('2026-01-10T00:00:00Z'), end: new Date('2026-02-10T00:00:00Z') };
  const at = (iso: string) => new Date(iso);
  assert.equal(nextStatus('pending_start', flight, at('2026-01-09T23:59:59Z')), undefined);
  assert.equal(nextStatus('pending_start', flight, at('2026-01-10T00:00:00Z')), 'active');
  assert.equal(
    nextStatus('pending_creatives', flight, at('2026-01-20T00:00:00Z')),
    undefined,
    'without creatives it cannot serve',
  );
  for (const status of ['pending_creatives', 'pending_start', 'active', 'paused'] as const)
    assert.equal(nextStatus(status, flight, flight.end), 'completed', status);
  for (const status of ['completed', 'rejected', 'canceled'] as const)
    assert.equal(nextStatus(status, flight, at('2027-01-01T00:00:00Z')), undefined, status);
});

eachEngine('sales agent: buys move with their flight', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let b: Buyer;
  /** Runs the flight pass once, from start to end, as the interval would. */
  const pass = async () => {
    const flight = server.app.agentPasses!.get('sales:flight')!;
    const done = flight.nextPass();
    flight.wake();
    await done;
  };
  const buyOf = async (id: string) =>
    ((await b.get({ media_buy_ids: [id], include_history: 5 })).media_buys as Json[])[0]!;

  before(async () => {
    server = await startSales(engine, clock);
    b = await buyer(server, clock);
  });
  after(async () => {
    await b.client.close();
    await server.close();
  });

  it('goes active when the start comes and completed when the end passes, each a revision the seller made', async () => {
    const created = await b.create({
      packages: [
        {
          ...(createArgs(clock, b.account, b.domain).packages as Json[])[0],
          creatives: [banner(server, `flight-${Date.now()}`)],
        },
      ],
    });
    assert.equal(created.status, 'pending_start');
    await pass();
    assert.equal((await buyOf(created.media_buy_id)).status, 'pending_start', 'nothing moves before the start');

    clock.advance(10 * day);
    await pass();
    const started = await buyOf(created.media_buy_id);
    assert.deepEqual([started.status, started.revision], ['active', 2]);
    assert.deepEqual(started.valid_actions, validActions('active'));
    assert.equal(started.history[0].actor, 'seller');

    clock.advance(30 * day);
    await pass();
    const ended = await buyOf(created.media_buy_id);
    assert.deepEqual([ended.status, ended.revision, ended.valid_actions], ['completed', 3, []]);
    assert.equal(
      (
        await b.fail('update_media_buy', {
          idempotency_key: crypto.randomUUID(),
          account: b.account,
          media_buy_id: created.media_buy_id,
          paused: true,
        })
      ).code,
      'INVALID_STATE',
    );
  });
});
