import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { loadConfig } from '../../../../src/config.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { buyer, type Buyer } from './harness.ts';

it('AGENT_TEST_CONTROLLER is true unless set to false', () => {
  assert.equal(loadConfig({}, {}).agents.testController, true);
  assert.equal(loadConfig({}, { AGENT_TEST_CONTROLLER: 'false' }).agents.testController, false);
  assert.throws(
    () => loadConfig({}, { AGENT_TEST_CONTROLLER: 'no' }),
    /AGENT_TEST_CONTROLLER must be one of true, false/,
  );
});

eachEngine('sales agent with AGENT_TEST_CONTROLLER=false', (engine) => {
  let server: TestServer;
  let b: Buyer;
  const clock = new ManualClock();

  before(async () => {
    server = await startTestServer(engine, {
      env: { AGENTS: 'true', AGENT_TEST_CONTROLLER: 'false' },
      deps: { clock },
    });
    b = await buyer(server, clock, { sandbox: true });
  });
  after(async () => {
    await b.client.close();
    await server.close();
  });

  it('offers no comply_test_controller, nor declares compliance testing', async () => {
    const { tools } = await b.client.listTools();
    assert.ok(tools.some((t) => t.name === 'create_media_buy'));
    assert.ok(!tools.some((t) => t.name === 'comply_test_controller'));
    assert.equal((await b.call('get_ap_capabilities', {})).compliance_testing, undefined);
    const error = await b.fail('comply_test_controller', { scenario: 'list_scenarios', account: b.account });
    assert.equal(error.code, 'INVALID_REQUEST');
  });

  it('never uses a directive left from a run with the controller', async () => {
    await server.db.query(
      `insert into sales_forced_create_arms (account_id, arm, created_at) values ($1, 'input-required', $2)`,
      [b.account.account_id, clock.now()],
    );
    assert.match((await b.create()).media_buy_id, /^mb_/);
    assert.equal(
      (await server.db.query('select 1 from sales_forced_create_arms where account_id = $1', [b.account.account_id]))
        .length,
      1,
    );
  });
});
