import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ConfigError } from '../../src/settings.ts';
import { activationMinutes, callerPool, runActivationPass, startSignals } from '../agents/signals/harness.ts';
import { ManualClock } from '../support/clock.ts';
import { anotherInstance, engines, type TestEngine } from '../support/engines.ts';
import type { TestServer } from '../support/server.ts';
import { TestReceiver } from '../support/webhooks.ts';

const minute = 60_000;

describe('AP_ROLE: what an instance runs', () => {
  it('leaves every piece of background work to the workers on a web instance, whatever each setting says', () => {
    const web = loadConfig({ processRole: 'web' }, { CRAWL_WORKER: 'true', PROBE_WORKER: 'true' });
    assert.deepEqual(
      [web.processRole, web.background, web.crawler.worker, web.probeWorker, web.profileEvents],
      ['web', false, false, false, false],
    );
    const worker = loadConfig({}, { AP_ROLE: 'worker', PROBE_WORKER: 'false' });
    assert.deepEqual(
      [worker.processRole, worker.background, worker.crawler.worker, worker.probeWorker],
      ['worker', true, true, false],
    );
    assert.equal(loadConfig({}, {}).processRole, 'all');
    // Other commands' own --role is no role of the process.
    assert.equal(loadConfig({ role: 'admin' } as never, {}).processRole, 'all');
    assert.throws(() => loadConfig({ processRole: 'cron' }), ConfigError);
  });
});

describe('a web instance and a worker on one PostgreSQL', () => {
  const postgres = engines.find((e) => e.name === 'postgres')!;
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  let web: TestServer;
  let worker: TestServer;
  const callers = callerPool(() => web);

  before(async () => {
    await receiver.listen();
    web = await startSignals(postgres, { clock, receiver, env: { AP_ROLE: 'web' } });
    // The same schema through a connection pool of its own, as a second process has.
    const sameDatabase: TestEngine = { ...postgres, openMigrated: () => anotherInstance(web.db) };
    worker = await startSignals(sameDatabase, { clock, receiver, env: { AP_ROLE: 'worker' } });
  });
  after(async () => {
    await callers.closeAll();
    await worker?.close();
    await web?.close();
    await receiver.close();
  });

  it('has an activation the web instance accepted made live, and its webhook sent once, by the worker', async () => {
    const buyer = await callers.organization();
    const accepted = await buyer.call('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'lum_pets',
      destinations: [{ type: 'platform', platform: 'alpha-dsp' }],
      push_notification_config: {
        url: `${receiver.url}/hooks/roles`,
        authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
      },
    });
    assert.equal(accepted.status, 'submitted');
    clock.advance(activationMinutes * minute + 1);
    await runActivationPass(worker);
    assert.equal((await buyer.call('get_task', { task_id: accepted.task_id })).status, 'completed');
    await receiver.until(() => receiver.events.some((e) => e.task_id === accepted.task_id));
    // Another pass of the worker's sender finds nothing more to send; the web instance has none running.
    const swept = worker.app.webhookDeliverer!.nextPass();
    worker.app.webhookDeliverer!.wake();
    await swept;
    assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 1);
  });
});
