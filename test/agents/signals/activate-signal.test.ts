import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { callerPool, startSignals, type Caller } from './harness.ts';

const agentTarget = (name: string) => ({ type: 'agent', agent_url: `https://${name}.sales.example/mcp` });
const runnersId = { source: 'catalog', data_provider_domain: 'audiencegraph.example', id: 'runners' };

/** The caller's deployments of runners on `destinations`, as get_signals says them. */
async function runnersOn(c: Caller, destinations: readonly Json[]): Promise<Json[]> {
  const [runners] = await c.signals({ signal_ids: [runnersId], destinations });
  return runners!.deployments as Json[];
}

/**
 * activate_signal's synchronous side: agent targets live at once, every refusal with its code,
 * both names of the targets, idempotent retries and deactivation. Platform activations, which
 * complete later, are in activation-webhooks.test.ts.
 */
eachEngine('signals agent: activate_signal', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const callers = callerPool(() => server);
  let publicTest: Caller;
  let acme: Caller;

  before(async () => {
    server = await startSignals(engine, { clock });
    publicTest = await callers.publicTest();
    acme = await callers.organization('acme');
  });
  after(async () => {
    await callers.closeAll();
    await server.close();
  });

  it('puts a signal live on an agent at once, with a key-value key that get_signals then shows', async () => {
    const buyer = await callers.organization();
    const target = agentTarget('live-at-once');
    const answer = await buyer.activate({ signal_agent_segment_id: 'agr_runners', destinations: [target] });
    assert.equal(answer.status, 'completed', 'answered at once, not as a task');
    assert.equal(answer.task_id, undefined);
    const [deployment] = answer.deployments as Json[];
    assert.deepEqual(
      { ...deployment, deployed_at: undefined },
      {
        ...target,
        is_live: true,
        activation_key: { type: 'key_value', key: 'ap_signal', value: 'agr_runners' },
        deployed_at: undefined,
      },
    );
    assert.equal(deployment!.deployed_at, clock.now().toISOString());
    assert.deepEqual(await runnersOn(buyer, [target]), [deployment]);
    // Another buyer's view is its own.
    const [theirs] = await runnersOn(await callers.organization(), [target]);
    assert.equal(theirs!.is_live, false);
  });

  it('takes the targets as the spec’s deployments or the schema’s destinations', async () => {
    const buyer = await callers.organization();
    const viaSpec = await buyer.activate({
      signal_agent_segment_id: 'lum_pets',
      deployments: [agentTarget('spec-name')],
    });
    const viaSchema = await buyer.activate({
      signal_agent_segment_id: 'lum_coffee',
      destinations: [agentTarget('schema-name')],
    });
    assert.deepEqual(
      [(viaSpec.deployments as Json[])[0]!.is_live, (viaSchema.deployments as Json[])[0]!.is_live],
      [true, true],
    );
    const error = await buyer.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'lum_pets',
      deployments: [{ type: 'platform', platform: 'nowhere-dsp' }],
    });
    assert.equal(error.field, 'deployments[0].platform', 'an error names the field as the caller did');
  });

  it('refuses more than 50 targets in one call, naming the field, and activates none of them', async () => {
    const buyer = await callers.organization();
    const targets = Array.from({ length: 51 }, (_, i) => agentTarget(`many-${i}`));
    const error = await buyer.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_runners',
      destinations: targets,
    });
    assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'destinations']);
    assert.equal((await runnersOn(buyer, [targets[0]!]))[0]!.is_live, false);
  });

  it('refuses an unknown segment id: SIGNAL_AGENT_SEGMENT_NOT_FOUND', async () => {
    const error = await publicTest.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'no_such_signal',
      destinations: [agentTarget('x')],
    });
    assert.deepEqual([error.code, error.field], ['SIGNAL_AGENT_SEGMENT_NOT_FOUND', 'signal_agent_segment_id']);
  });

  it('refuses what is live already: ALREADY_ACTIVATED, on an agent activated before and on a platform live for everyone', async () => {
    const buyer = await callers.organization();
    await buyer.activate({ signal_agent_segment_id: 'agr_ev_intenders', destinations: [agentTarget('twice')] });
    const again = await buyer.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_ev_intenders',
      destinations: [agentTarget('twice')],
    });
    assert.deepEqual([again.code, again.field], ['ALREADY_ACTIVATED', 'destinations[0]']);
    const catalogLive = await buyer.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_runners',
      destinations: [agentTarget('first'), { type: 'platform', platform: 'alpha-dsp' }],
    });
    assert.deepEqual([catalogLive.code, catalogLive.field], ['ALREADY_ACTIVATED', 'destinations[1]']);
  });

  it('refuses a platform it does not work with, and a seat the caller does not hold: DEPLOYMENT_UNAUTHORIZED', async () => {
    const unknown = await acme.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_runners',
      destinations: [{ type: 'platform', platform: 'nowhere-dsp' }],
    });
    assert.deepEqual(
      [unknown.code, unknown.field, unknown.recovery],
      ['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].platform', 'correctable'],
      'correctable: another platform will do',
    );
    assert.deepEqual(
      ((unknown.details as Json).errors as Json[]).map((e) => [e.code, e.field]),
      [['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].platform']],
      'each refused target in details.errors',
    );
    const othersSeat = await acme.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_runners',
      destinations: [{ type: 'platform', platform: 'beta-dsp', account: 'public-seat' }],
    });
    assert.deepEqual([othersSeat.code, othersSeat.field], ['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].account']);
    const noSeats = await (
      await callers.organization()
    ).fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_runners',
      destinations: [{ type: 'platform', platform: 'alpha-dsp', account: 'acme-seat' }],
    });
    assert.deepEqual([noSeats.code, noSeats.field], ['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].account']);
  });

  it('refuses a platform that does not carry the signal: ACTIVATION_FAILED, correctable (a retry meets the same refusal)', async () => {
    const error = await acme.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'lum_coffee',
      destinations: [{ type: 'platform', platform: 'alpha-dsp' }],
    });
    assert.deepEqual(
      [error.code, error.field, error.recovery],
      ['ACTIVATION_FAILED', 'destinations[0].platform', 'correctable'],
    );
  });

  it('refuses another principal’s custom signal (AGENT_ACCESS_DENIED) and, without saying it exists, another’s owned one (AGENT_NOT_FOUND)', async () => {
    const custom = await publicTest.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'cst_acme_lookalikes',
      destinations: [agentTarget('private')],
    });
    assert.deepEqual([custom.code, custom.field], ['AGENT_ACCESS_DENIED', 'signal_agent_segment_id']);
    const owned = await publicTest.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'own_acme_crm',
      destinations: [agentTarget('private')],
    });
    assert.deepEqual([owned.code, owned.field], ['AGENT_NOT_FOUND', 'signal_agent_segment_id']);
    // Their principals may.
    for (const id of ['cst_acme_lookalikes', 'own_acme_crm']) {
      const answer = await acme.activate({ signal_agent_segment_id: id, destinations: [agentTarget('private')] });
      assert.equal((answer.deployments as Json[])[0]!.is_live, true);
    }
  });

  it('changes nothing when it refuses a call, whichever target is refused', async () => {
    const buyer = await callers.organization();
    const targets = [agentTarget('refused'), { type: 'platform', platform: 'beta-dsp' }];
    const before = await runnersOn(buyer, targets);
    for (const refused of [
      { type: 'platform', platform: 'nowhere-dsp' },
      { type: 'platform', platform: 'alpha-dsp' },
      { type: 'platform', platform: 'beta-dsp', account: 'acme-seat' },
    ]) {
      await buyer.fail('activate_signal', {
        idempotency_key: randomUUID(),
        signal_agent_segment_id: 'agr_runners',
        destinations: [...targets, refused],
      });
    }
    assert.deepEqual(await runnersOn(buyer, targets), before);
    assert.ok(before.every((d) => d.is_live === false));
  });

  it('replays a retry with the same key and payload, activating nothing twice; the same key with another payload is IDEMPOTENCY_CONFLICT', async () => {
    const buyer = await callers.organization();
    const args = {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'agr_runners',
      destinations: [agentTarget('retried')],
    };
    const first = await buyer.call('activate_signal', args);
    const retry = await buyer.call('activate_signal', args);
    assert.equal(first.replayed, false);
    assert.deepEqual(retry, { ...first, replayed: true });
    // Run again, the activation would have been refused as live already.
    const conflict = await buyer.fail('activate_signal', { ...args, destinations: [agentTarget('elsewhere')] });
    assert.deepEqual([conflict.code, conflict.field], ['IDEMPOTENCY_CONFLICT', 'idempotency_key']);
    const [elsewhere] = await runnersOn(buyer, [agentTarget('elsewhere')]);
    assert.equal(elsewhere!.is_live, false, 'the conflicting payload did nothing');
  });

  it('takes a live activation down with action deactivate, after which get_signals shows it not live', async () => {
    const buyer = await callers.organization();
    const target = agentTarget('deactivated');
    await buyer.activate({ signal_agent_segment_id: 'agr_runners', destinations: [target] });
    assert.equal((await runnersOn(buyer, [target]))[0]!.is_live, true);
    const down = await buyer.activate({
      signal_agent_segment_id: 'agr_runners',
      destinations: [target],
      action: 'deactivate',
    });
    assert.deepEqual(down.deployments, [{ ...target, is_live: false }]);
    assert.deepEqual(await runnersOn(buyer, [target]), [
      { ...target, is_live: false, estimated_activation_duration_minutes: 0 },
    ]);
    const again = await buyer.activate({ signal_agent_segment_id: 'agr_runners', destinations: [target] });
    assert.equal((again.deployments as Json[])[0]!.is_live, true, 'and it may be activated again');
  });

  it('leaves a signal live for everyone on the agent’s own seat as it is, and says so, when asked to deactivate it', async () => {
    const buyer = await callers.organization();
    const ownSeat = { type: 'platform', platform: 'alpha-dsp' };
    const answer = await buyer.activate({
      signal_agent_segment_id: 'agr_runners',
      destinations: [ownSeat],
      action: 'deactivate',
    });
    assert.deepEqual(answer.deployments, [
      { ...ownSeat, is_live: true, activation_key: { type: 'segment_id', segment_id: 'alpha-1001' } },
    ]);
    assert.deepEqual(await runnersOn(buyer, [ownSeat]), answer.deployments);
  });
});
