import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { TaskState } from '@a2a-js/sdk';
import { pruneAgentRecords } from '../../../src/agents/runtime/housekeeping.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { a2aClient, sendSkill } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { testConfig, type TestServer } from '../../support/server.ts';
import { TestReceiver } from '../../support/webhooks.ts';
import { activationMinutes, callerPool, publicToken, runActivationPass, startSignals, type Caller } from './harness.ts';

const ACTIVATE_RESPONSE = '/schemas/3.0.6/signals/activate-signal-response.json';
const WEBHOOK = '/schemas/3.0.6/core/mcp-webhook-payload.json';
const minute = 60_000;
const agentTarget = { type: 'agent', agent_url: 'https://sales.buyer.example/mcp' };
const alpha = { type: 'platform', platform: 'alpha-dsp' };
const beta = { type: 'platform', platform: 'beta-dsp' };
const petsId = { source: 'catalog', data_provider_domain: 'lumendata.example', id: 'pets' };

/** The caller's deployments of `signalId` on `destinations`, as get_signals says them. */
async function deploymentsOf(c: Caller, signalId: Json, destinations: readonly Json[]): Promise<Json[]> {
  const [signal] = await c.signals({ signal_ids: [signalId], destinations });
  return signal!.deployments as Json[];
}

/**
 * Activations on platforms take the platform's time: the call answers its task with the
 * deployments not yet live; once the clock passes their due time the activation pass makes them
 * live with their segment ids and completes the task, which the buyer sees by get_task, by
 * get_signals, by one signed webhook, and over A2A.
 */
eachEngine('signals agent: platform activations', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  const callers = callerPool(() => server);
  const push = (name: string) => ({
    push_notification_config: {
      url: `${receiver.url}/hooks/signals/${name}`,
      authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
    },
  });
  /** Moves the clock past every activation now pending and lets the pass complete them. */
  let acme: Caller;
  const completeDue = async () => {
    clock.advance(activationMinutes * minute + 1);
    await runActivationPass(server);
  };

  /** Lets the webhook sender look at its outbox once more, from now. */
  const sweepOutbox = async () => {
    const swept = server.app.webhookDeliverer!.nextPass();
    server.app.webhookDeliverer!.wake();
    await swept;
  };

  before(async () => {
    server = await startSignals(engine, { clock, receiver });
    acme = await callers.organization('acme');
  });
  after(async () => {
    await callers.closeAll();
    await server.close();
    await receiver.close();
  });

  it('answers a platform activation submitted, then makes it live when due: seen by get_task, get_signals and one signed webhook', async () => {
    const buyer = await callers.organization();
    const destinations = [agentTarget, alpha, beta];
    const args = { idempotency_key: randomUUID(), signal_agent_segment_id: 'lum_pets', destinations, ...push('pets') };
    const accepted = await buyer.call('activate_signal', args);
    assert.equal(accepted.status, 'submitted');
    assert.match(accepted.task_id, /^[0-9a-f-]{36}$/);
    const [onAgent, ...pending] = accepted.deployments as Json[];
    assert.equal(onAgent!.is_live, true, 'the agent target is live at once');
    assert.deepEqual(pending, [
      { ...alpha, is_live: false, estimated_activation_duration_minutes: activationMinutes },
      { ...beta, is_live: false, estimated_activation_duration_minutes: activationMinutes },
    ]);

    const waiting = await buyer.call('get_task', { task_id: accepted.task_id });
    assert.deepEqual(
      [waiting.status, waiting.task_type, waiting.protocol, waiting.has_webhook],
      ['submitted', 'activate_signal', 'signals', true],
    );
    clock.advance(10 * minute);
    await runActivationPass(server);
    assert.deepEqual(
      (await deploymentsOf(buyer, petsId, [alpha, beta])).map((d) => [
        d.is_live,
        d.estimated_activation_duration_minutes,
      ]),
      [
        [false, activationMinutes - 10],
        [false, activationMinutes - 10],
      ],
      'not live before it is due, with the minutes left',
    );
    assert.equal((await buyer.call('get_task', { task_id: accepted.task_id })).status, 'submitted');

    await completeDue();
    const task = await buyer.call('get_task', { task_id: accepted.task_id });
    assert.equal(task.status, 'completed');
    assert.deepEqual(validateSchema(ACTIVATE_RESPONSE, task.result).errors, []);
    const live = task.result.deployments as Json[];
    assert.deepEqual(live[0], onAgent, 'every target of the call, in its order');
    for (const [index, target] of [alpha, beta].entries()) {
      const deployment = live[index + 1]!;
      assert.deepEqual(
        [deployment.type, deployment.platform, deployment.is_live, deployment.deployed_at],
        [target.type, target.platform, true, clock.now().toISOString()],
      );
      assert.equal(deployment.activation_key.type, 'segment_id');
      assert.match(deployment.activation_key.segment_id, new RegExp(`^${target.platform}-[0-9a-f]{12}$`));
    }
    assert.notEqual(live[1]!.activation_key.segment_id, live[2]!.activation_key.segment_id);
    assert.deepEqual(await deploymentsOf(buyer, petsId, destinations), live, 'get_signals shows the same keys live');

    await receiver.until(() => receiver.events.some((e) => e.task_id === accepted.task_id));
    // A pass with nothing due and a sweep of the outbox send nothing more.
    await runActivationPass(server);
    await sweepOutbox();
    const hooks = receiver.events.filter((e) => e.task_id === accepted.task_id);
    assert.equal(hooks.length, 1, 'one verified webhook for the completion');
    const hook = hooks[0]!;
    assert.deepEqual(validateSchema(WEBHOOK, hook).errors, []);
    assert.deepEqual([hook.status, hook.task_type], ['completed', 'activate_signal']);
    assert.deepEqual(hook.result, task.result);
    assert.ok(
      receiver.requests.some(
        (r) => r.url.endsWith('/hooks/signals/pets') && typeof r.headers['signature'] === 'string',
      ),
      'sent signed to the URL given',
    );

    const replay = await buyer.call('activate_signal', args);
    assert.deepEqual(replay, { ...accepted, replayed: true }, 'a retry replays the acceptance');
    assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 1);
  });

  it('activates on a buyer’s own seat even where the agent’s seat is live, with a segment id of its own', async () => {
    const seat = { type: 'platform', platform: 'alpha-dsp', account: 'acme-seat' };
    const accepted = await acme.activate({ signal_agent_segment_id: 'agr_runners', destinations: [seat] });
    assert.equal(accepted.status, 'submitted');
    await completeDue();
    const task = await acme.call('get_task', { task_id: accepted.task_id });
    const deployment = (task.result.deployments as Json[])[0]!;
    assert.equal(deployment.is_live, true);
    assert.notEqual(
      deployment.activation_key.segment_id,
      'alpha-1001',
      'not the catalog’s segment of the agent’s seat',
    );
    const runnersId = { source: 'catalog', data_provider_domain: 'audiencegraph.example', id: 'runners' };
    assert.deepEqual(await deploymentsOf(acme, runnersId, [seat]), [deployment]);
    assert.equal(
      (await deploymentsOf(await callers.organization(), runnersId, [seat]))[0]!.is_live,
      false,
      'another organization does not see acme’s',
    );
  });

  it('never makes live what the caller canceled, and activates anew when asked again', async () => {
    const buyer = await callers.organization();
    const accepted = await buyer.activate({
      signal_agent_segment_id: 'lum_pets',
      destinations: [beta],
      ...push('canceled'),
    });
    const busy = await buyer.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'lum_pets',
      destinations: [beta],
      action: 'deactivate',
    });
    assert.deepEqual(
      [busy.code, busy.field],
      ['INVALID_STATE', 'destinations[0]'],
      'a pending activation is canceled through its task',
    );
    const canceled = await buyer.call('cancel_task', { task_id: accepted.task_id });
    assert.equal(canceled.status, 'canceled');
    // cancel_task wakes the sender itself: the webhook leaves without waiting for a poll.
    await receiver.until(() => receiver.events.some((e) => e.task_id === accepted.task_id));

    await completeDue();
    assert.equal((await buyer.call('get_task', { task_id: accepted.task_id })).status, 'canceled');
    assert.deepEqual(await deploymentsOf(buyer, petsId, [beta]), [
      { ...beta, is_live: false, estimated_activation_duration_minutes: activationMinutes },
    ]);
    await sweepOutbox();
    const hooks = receiver.events.filter((e) => e.task_id === accepted.task_id);
    assert.deepEqual(
      hooks.map((e) => e.status),
      ['canceled'],
      'the cancellation was sent, no completion',
    );
    assert.deepEqual(validateSchema(WEBHOOK, hooks[0]).errors, []);

    const again = await buyer.activate({ signal_agent_segment_id: 'lum_pets', destinations: [beta] });
    assert.equal(again.status, 'submitted');
    assert.notEqual(again.task_id, accepted.task_id);
    await completeDue();
    assert.equal((await buyer.call('get_task', { task_id: again.task_id })).status, 'completed');
    assert.equal((await deploymentsOf(buyer, petsId, [beta]))[0]!.is_live, true);
  });

  it('activates anew when asked again after canceling, before the canceled activation fell due', async () => {
    const buyer = await callers.organization();
    const accepted = await buyer.activate({ signal_agent_segment_id: 'lum_pets', destinations: [alpha] });
    clock.advance(10 * minute);
    const left = async () =>
      (await deploymentsOf(buyer, petsId, [alpha]))[0]!.estimated_activation_duration_minutes as number;
    assert.equal(await left(), activationMinutes - 10, 'under way');
    await buyer.call('cancel_task', { task_id: accepted.task_id });
    assert.equal(await left(), activationMinutes, 'nothing under way any more: the whole activation time again');
    const again = await buyer.activate({ signal_agent_segment_id: 'lum_pets', destinations: [alpha] });
    assert.equal(again.status, 'submitted', `a new activation under way: ${JSON.stringify(again)}`);
    assert.notEqual(again.task_id, accepted.task_id);
    assert.equal((again.deployments as Json[])[0]!.estimated_activation_duration_minutes, activationMinutes);
    await completeDue();
    assert.equal((await buyer.call('get_task', { task_id: again.task_id })).status, 'completed');
    assert.equal((await deploymentsOf(buyer, petsId, [alpha]))[0]!.is_live, true);
    assert.equal((await buyer.call('get_task', { task_id: accepted.task_id })).status, 'canceled');
  });

  it('over A2A, answers a platform activation as a Task that completes with the live deployments as its artifact', async () => {
    const a2a = await a2aClient(server.url, '/signals', { authorization: `Bearer ${publicToken}` });
    const seat = { type: 'platform', platform: 'beta-dsp', account: 'public-seat' };
    const answer = await sendSkill(a2a, 'activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'cst_public_weekend',
      destinations: [seat],
    });
    assert.ok('status' in answer, `expected a Task, got ${JSON.stringify(answer)}`);
    assert.equal(answer.status?.state, TaskState.TASK_STATE_SUBMITTED);
    const status = answer.status!.message!.parts[0]!.content as { $case: 'data'; value: Json };
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/tasks-get-response.json', status.value).errors, []);
    assert.deepEqual([status.value.task_type, status.value.status], ['activate_signal', 'submitted']);
    await completeDue();
    const got = await a2a.getTask({ tenant: '', id: answer.id, historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
    const artifact = got.artifacts[0]!.parts[0]!.content as { $case: 'data'; value: Json };
    assert.deepEqual(validateSchema(ACTIVATE_RESPONSE, artifact.value).errors, []);
    const deployment = (artifact.value.deployments as Json[])[0]!;
    assert.deepEqual(
      [deployment.account, deployment.is_live, deployment.activation_key.type],
      ['public-seat', true, 'segment_id'],
    );
  });

  // Last: it moves the clock on by more than a week.
  it('drops a canceled activation whose task was pruned meanwhile, without holding up the others due', async () => {
    const [canceler, other] = [await callers.organization(), await callers.organization()];
    const canceled = await canceler.activate({ signal_agent_segment_id: 'lum_pets', destinations: [beta] });
    await canceler.call('cancel_task', { task_id: canceled.task_id });
    // As after a deployment stopped for longer than finished tasks are kept.
    clock.advance(8 * 24 * 60 * minute);
    const pruned = await pruneAgentRecords(server.db, clock, testConfig().agents.replayTtlSeconds);
    assert.ok(pruned.tasks >= 1);
    const waiting = await other.activate({ signal_agent_segment_id: 'lum_pets', destinations: [beta] });
    await completeDue();
    assert.equal((await other.call('get_task', { task_id: waiting.task_id })).status, 'completed');
    assert.equal((await deploymentsOf(other, petsId, [beta]))[0]!.is_live, true);
    assert.equal((await deploymentsOf(canceler, petsId, [beta]))[0]!.is_live, false);
  });
});
