import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { TaskState } from '@a2a-js/sdk';
import type { TaskEvent } from '../../../../src/agents/index.ts';
import { publicTestCredential } from '../../../../src/config.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { a2aClient, sendSkill } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import { Reports } from '../../../support/events.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';
import { buyerPool, createArgs, startSalesWithReceiver } from './harness.ts';

const CREATE_RESPONSE = '/schemas/3.0.6/media-buy/create-media-buy-response.json';
/** The demo catalog's exclusive takeover, which waits for the publisher's approval. */
const takeover = { product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18000 };

/**
 * A buy of a product that needs the publisher's approval answers `submitted`; the worker books
 * it, and the buyer hears the result once: by get_task, by its webhook receiver, over A2A.
 */
eachEngine('sales agent: create_media_buy waiting for approval', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  const tasks = new Reports<TaskEvent>();
  const buyers = buyerPool(() => server, clock);
  const push = (name: string) => ({
    push_notification_config: {
      url: `${receiver.url}/hooks/ap/${name}`,
      authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
    },
  });
  const completed = (taskId: string) => tasks.until((t) => t.taskId === taskId && t.status === 'completed');

  before(async () => {
    server = await startSalesWithReceiver(engine, clock, receiver, (app) => void app.taskWorker!.watch(tasks.add));
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
    await receiver.close();
  });

  it('answers submitted, books the buy in the background, and sends one signed webhook with the media buy', async () => {
    const b = await buyers.add();
    const args = createArgs(clock, b.account, b.domain, { packages: [takeover], ...push('takeover') });
    const accepted = await b.call('create_media_buy', args);
    assert.equal(accepted.status, 'submitted');
    assert.match(accepted.message, /The Daily Harbor Homepage Takeover needs the publisher's approval/);
    assert.deepEqual(
      validateSchema(CREATE_RESPONSE, accepted).errors,
      [],
      'the submitted branch of the published response',
    );
    assert.equal(accepted.media_buy_id, undefined, 'no buy before the approval');

    await completed(accepted.task_id);
    const task = await b.call('get_task', { task_id: accepted.task_id });
    assert.equal(task.status, 'completed');
    assert.equal(task.task_type, 'create_media_buy');
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/tasks-get-response.json', task).errors, []);
    const buy = task.result as Json;
    assert.deepEqual(validateSchema(CREATE_RESPONSE, buy).errors, [], 'the result is a booked media buy');
    assert.equal(buy.status, 'pending_creatives');
    assert.equal(buy.packages[0].product_id, 'dh_homepage_takeover');
    assert.deepEqual(
      (await b.get({ media_buy_ids: [buy.media_buy_id] })).media_buys.map((m: Json) => m.media_buy_id),
      [buy.media_buy_id],
    );

    await receiver.until(() => receiver.events.some((e) => e.task_id === accepted.task_id));
    const hooks = receiver.events.filter((e) => e.task_id === accepted.task_id);
    assert.equal(hooks.length, 1, 'one verified webhook per completion');
    assert.equal(hooks[0]!.status, 'completed');
    assert.equal((hooks[0]!.result as Json).media_buy_id, buy.media_buy_id);

    const replay = await b.call('create_media_buy', args);
    assert.deepEqual(
      [replay.task_id, replay.status, replay.replayed],
      [accepted.task_id, 'submitted', true],
      'a retry replays the acceptance, never books twice',
    );
    assert.equal((await b.get({ status_filter: ['pending_creatives'] })).media_buys.length, 1);
  });

  it('refuses a buy that could not book before accepting it: the checks run first', async () => {
    const b = await buyers.add();
    const error = await b.fail(
      'create_media_buy',
      createArgs(clock, b.account, b.domain, { packages: [{ ...takeover, pricing_option_id: 'nope' }] }),
    );
    assert.equal(error.field, 'packages[0].pricing_option_id');
  });

  it('over A2A, answers the submitted buy as a Task whose artifact is the media buy once approved', async () => {
    const b = await buyers.add();
    const a2a = await a2aClient(server.url, '/sales', { authorization: `Bearer ${publicTestCredential}` });
    const answer = await sendSkill(
      a2a,
      'create_media_buy',
      createArgs(clock, b.account, b.domain, { packages: [takeover] }),
    );
    assert.ok('status' in answer, `expected a Task, got ${JSON.stringify(answer)}`);
    await completed(answer.id);
    const got = await a2a.getTask({ tenant: '', id: answer.id, historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
    const artifact = got.artifacts[0]!.parts[0]!.content as { $case: 'data'; value: Json };
    assert.deepEqual(validateSchema(CREATE_RESPONSE, artifact.value).errors, []);
    assert.match(artifact.value.media_buy_id, /^mb_/);
  });
});
