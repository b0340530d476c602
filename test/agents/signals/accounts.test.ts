import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { callerPool, ids, startSignals, type Caller } from './harness.ts';

/** A sandbox account as a buyer's tools name it with implicit accounts: brand and operator. */
const sandboxAccount = { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example', sandbox: true };

/**
 * signal-marketplace's account steps: a buyer registers the accounts it buys for with
 * sync_accounts and finds them with list_accounts, then discovers and activates naming one.
 */
eachEngine('signals agent: accounts', (engine) => {
  let server: TestServer;
  const callers = callerPool(() => server);
  let buyer: Caller;

  before(async () => {
    server = await startSignals(engine, { clock: new ManualClock() });
    buyer = await callers.organization();
  });
  after(async () => {
    await callers.closeAll();
    await server.close();
  });

  it('declares implicit accounts beside its specialisms, and serves the tasks of the account steps', async () => {
    const answer = (await buyer.client.callTool({ name: 'get_ap_capabilities', arguments: {} })) as Json;
    const capabilities = JSON.parse(answer.content[0].text as string) as Json;
    assert.deepEqual(
      validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
      [],
    );
    assert.deepEqual(capabilities.specialisms, ['signal-owned']);
    assert.deepEqual([capabilities.account.require_operator_auth, capabilities.account.sandbox], [false, true]);
    const { tools } = await buyer.client.listTools();
    for (const task of ['get_signals', 'activate_signal', 'get_ap_capabilities', 'sync_accounts', 'list_accounts'])
      assert.ok(
        tools.some((t) => t.name === task),
        task,
      );
  });

  it('registers a sandbox account by brand and operator, lists it, and takes it on get_signals and activate_signal', async () => {
    const synced = await buyer.call('sync_accounts', {
      idempotency_key: randomUUID(),
      accounts: [{ ...sandboxAccount, billing: 'operator' }],
    });
    const [account] = synced.accounts as Json[];
    assert.deepEqual(
      [account!.action, account!.status, account!.sandbox, account!.operator],
      ['created', 'active', true, 'pinnacle-agency.example'],
    );
    const listed = await buyer.call('list_accounts', { sandbox: true });
    assert.deepEqual(
      (listed.accounts as Json[]).map((a) => a.account_id),
      [account!.account_id],
    );

    for (const ref of [sandboxAccount, { account_id: account!.account_id }]) {
      const found = await buyer.call('get_signals', { signal_spec: 'marathon runners', account: ref });
      assert.equal(ids(found.signals as Json[])[0], 'agr_runners');
    }
    const activated = await buyer.activate({
      signal_agent_segment_id: 'agr_runners',
      destinations: [{ type: 'agent', agent_url: 'https://sales.acmeoutdoor.example/mcp' }],
      account: sandboxAccount,
    });
    assert.equal((activated.deployments as Json[])[0]!.is_live, true);
  });
});
