import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';
import { buyerPool, createArgs, refused, startSalesWithReceiver, succeeds, type Buyer } from './harness.ts';

const TASK = '/schemas/3.0.6/core/tasks-get-response.json';

eachEngine('sales agent: comply_test_controller, the forced create arm and task completion', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  const buyers = buyerPool(() => server, clock, { sandbox: true });
  const newBuyer = buyers.add;
  /** A create_media_buy whose webhooks go to the receiver, under a path of its own. */
  const create = (b: Buyer, more: Record<string, unknown> = {}) =>
    b.call(
      'create_media_buy',
      createArgs(clock, b.account, b.domain, {
        push_notification_config: { url: `${receiver.url}/hooks/${randomUUID()}` },
        ...more,
      }),
    );
  const buysOf = async (b: Buyer) =>
    (await b.get({ status_filter: ['pending_creatives', 'pending_start', 'active'] })).media_buys as Json[];
  const deliveries = async (taskId: string) =>
    (
      await server.db.query<{ n: number }>('select count(*)::int as n from webhook_deliveries where task_id = $1', [
        taskId,
      ])
    )[0]!.n;
  const result = (mediaBuyId: string) => ({
    media_buy_id: mediaBuyId,
    status: 'active',
    packages: [{ package_id: 'pkg-0', product_id: 'dh_news_display', budget: 30000 }],
  });

  before(async () => {
    server = await startSalesWithReceiver(engine, clock, receiver);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
    await receiver.close();
  });

  it('answers the next create submitted under the forced task id, held until force_task_completion, whose result the buyer gets in one signed webhook', async () => {
    const b = await newBuyer();
    const taskId = `task_async_signed_io_${randomUUID()}`;
    const forced = await succeeds(b, 'force_create_media_buy_arm', {
      arm: 'submitted',
      task_id: taskId,
      message: 'Awaiting IO signature from sales team',
    });
    assert.deepEqual(forced.forced, { arm: 'submitted', task_id: taskId });

    const args = createArgs(clock, b.account, b.domain, {
      push_notification_config: { url: `${receiver.url}/hooks/${taskId}` },
    });
    const submitted = await b.call('create_media_buy', args);
    assert.deepEqual(submitted, {
      status: 'submitted',
      task_id: taskId,
      message: 'Awaiting IO signature from sales team',
      replayed: false,
    });
    assert.deepEqual(await buysOf(b), [], 'nothing was booked');
    const waiting = await b.call('get_task', { task_id: taskId });
    assert.deepEqual(validateSchema(TASK, waiting).errors, []);
    assert.deepEqual([waiting.task_id, waiting.task_type, waiting.status], [taskId, 'create_media_buy', 'submitted']);

    const completed = await succeeds(b, 'force_task_completion', {
      task_id: taskId,
      result: result('mb_async_signed_io'),
    });
    assert.deepEqual([completed.previous_state, completed.current_state], ['submitted', 'completed']);
    await receiver.until(() => receiver.events.some((e) => e.task_id === taskId));
    const webhooks = receiver.events.filter((e) => e.task_id === taskId);
    assert.equal(webhooks.length, 1);
    assert.deepEqual(
      [webhooks[0]!.status, webhooks[0]!.task_type, webhooks[0]!.result],
      ['completed', 'create_media_buy', result('mb_async_signed_io')],
    );
    assert.equal(await deliveries(taskId), 1, 'one webhook queued for the task');
    const done = await b.call('get_task', { task_id: taskId });
    assert.deepEqual(validateSchema(TASK, done).errors, []);
    assert.deepEqual([done.status, done.result], ['completed', result('mb_async_signed_io')]);

    const twice = await refused(b, 'INVALID_TRANSITION', 'force_task_completion', {
      task_id: taskId,
      result: result('mb_other'),
    });
    assert.deepEqual(
      [twice.current_state, /completed/.test(twice.error_detail)],
      ['completed', true],
      'a terminal task cannot be completed again',
    );
    assert.equal(await deliveries(taskId), 1);

    const replay = await b.call('create_media_buy', args);
    assert.deepEqual(
      [replay.status, replay.task_id, replay.replayed],
      ['submitted', taskId, true],
      'a retry of the forced create replays it',
    );
    const normal = await create(b);
    assert.match(normal.media_buy_id, /^mb_/, 'the directive was consumed once: the next create books');
  });

  it('answers the next create input-required as the errors branch, then books as usual', async () => {
    const b = await newBuyer();
    const forced = await succeeds(b, 'force_create_media_buy_arm', {
      arm: 'input-required',
      task_id: 'ignored',
      message: 'Sign the insertion order first.',
    });
    assert.deepEqual(forced.forced, { arm: 'input-required' });
    const answer = await create(b);
    assert.deepEqual(
      answer.errors.map((e: Json) => [e.code, e.message]),
      [['IO_REQUIRED', 'Sign the insertion order first.']],
    );
    assert.equal(answer.media_buy_id, undefined);
    assert.deepEqual(await buysOf(b), []);
    assert.match((await create(b)).media_buy_id, /^mb_/);
  });

  it('answers the forced arm in place of a wait for the publisher’s approval', async () => {
    const b = await newBuyer();
    const takeover = { product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18000 };
    await succeeds(b, 'force_create_media_buy_arm', { arm: 'input-required' });
    assert.equal((await create(b, { packages: [takeover] })).errors[0].code, 'IO_REQUIRED');
    const waiting = await create(b, { packages: [takeover] });
    assert.equal(waiting.status, 'submitted');
    assert.match(waiting.message, /approval/, 'the next one waits for approval as usual');
  });

  it('keeps a directive to its account, lets a newer one replace it, and leaves it when the create is refused before booking', async () => {
    const b = await newBuyer();
    const sibling = await newBuyer();
    await succeeds(b, 'force_create_media_buy_arm', { arm: 'submitted', task_id: `t-${randomUUID()}` });
    await succeeds(b, 'force_create_media_buy_arm', { arm: 'input-required' });
    assert.match((await create(sibling)).media_buy_id, /^mb_/, 'another account books as usual');
    const bad = await b.fail(
      'create_media_buy',
      createArgs(clock, b.account, b.domain, {
        packages: [{ product_id: 'no_such_product', pricing_option_id: 'x', budget: 100 }],
      }),
    );
    assert.equal(bad.code, 'PRODUCT_NOT_FOUND');
    const answer = await create(b);
    assert.equal(answer.errors[0].code, 'IO_REQUIRED', 'the newer directive, still there after the refused create');
    assert.match((await create(b)).media_buy_id, /^mb_/);
  });

  it('refuses malformed directives as INVALID_PARAMS: a submitted arm without task_id, an empty one', async () => {
    const b = await newBuyer();
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'force_create_media_buy_arm', { arm: 'submitted' })).error_detail,
      /params\.task_id/,
    );
    await refused(b, 'INVALID_PARAMS', 'force_create_media_buy_arm', { arm: 'submitted', task_id: '' });
    assert.match((await create(b)).media_buy_id, /^mb_/, 'no directive was stored');
  });

  it('refuses completions that are not this sandbox account’s task or not a create_media_buy result, leaving the task waiting', async () => {
    const b = await newBuyer();
    const sibling = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    const taskId = `held-${randomUUID()}`;
    await succeeds(b, 'force_create_media_buy_arm', { arm: 'submitted', task_id: taskId });
    assert.equal((await create(b)).task_id, taskId);

    assert.equal(
      (
        await refused(b, 'NOT_FOUND', 'force_task_completion', {
          task_id: `nowhere-${randomUUID()}`,
          result: result('mb_x'),
        })
      ).current_state,
      null,
    );
    await refused(sibling, 'NOT_FOUND', 'force_task_completion', { task_id: taskId, result: result('mb_x') });
    await refused(other, 'NOT_FOUND', 'force_task_completion', { task_id: taskId, result: result('mb_x') });
    const notCreate = await refused(b, 'INVALID_PARAMS', 'force_task_completion', {
      task_id: taskId,
      result: { media_buy_id: 'mb_x' },
    });
    assert.match(notCreate.error_detail, /packages/);
    await refused(b, 'INVALID_PARAMS', 'force_task_completion', {
      task_id: taskId,
      result: { status: 'submitted', task_id: 'again' },
    });
    await refused(b, 'INVALID_PARAMS', 'force_task_completion', {
      task_id: taskId,
      result: { ...result('mb_x'), ext: { padding: 'x'.repeat(300 * 1024) } },
    });
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'force_task_completion', { task_id: taskId, result: 'done' })).error_detail,
      /params\.result/,
    );

    assert.equal((await b.call('get_task', { task_id: taskId })).status, 'submitted');
    assert.equal(await deliveries(taskId), 0, 'no webhook was queued');
    await succeeds(b, 'force_task_completion', { task_id: taskId, result: result('mb_x') });
    assert.equal((await b.call('get_task', { task_id: taskId })).status, 'completed');
  });
});
