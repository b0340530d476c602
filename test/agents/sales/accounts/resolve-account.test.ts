import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setAccountStatus, type AccountStatus } from '../../../../src/agents/sales/accounts/index.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { entry, organizationCaller, salesTenant, type Caller } from './harness.ts';

eachEngine('sales agent: resolving a request’s account', (engine) => {
  let server: TestServer;
  const callers: Caller[] = [];
  const caller = async () => {
    const made = await organizationCaller(server);
    callers.push(made);
    return made;
  };
  const resolved = async (who: Caller, account: Json) => (await who.call('which_account', { account })).account as Json;

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [salesTenant()] } });
  });
  after(async () => {
    for (const c of callers) await c.client.close();
    await server.close();
  });

  it('gives the task the account named by id or by natural key, sandbox meaning production when absent', async () => {
    const buyer = await caller();
    const [live, sandbox] = (await buyer.sync([entry('resolve.example', 'agency.example'), entry('resolve.example', 'agency.example', { sandbox: true })])).accounts;
    const byId = await resolved(buyer, { account_id: live.account_id });
    assert.deepEqual(byId, (await buyer.list()).accounts[0]);
    assert.equal(byId.status, 'active');
    assert.equal(byId.sandbox, false);

    assert.equal((await resolved(buyer, { brand: { domain: 'resolve.example' }, operator: 'agency.example' })).account_id, live.account_id);
    assert.equal((await resolved(buyer, { brand: { domain: 'resolve.example' }, operator: 'agency.example', sandbox: false })).account_id, live.account_id);
    const sandboxed = await resolved(buyer, { brand: { domain: 'resolve.example' }, operator: 'agency.example', sandbox: true });
    assert.deepEqual([sandboxed.account_id, sandboxed.sandbox], [sandbox.account_id, true]);
    assert.equal((await buyer.call('which_account', {})).account, null, 'no reference, no account');
  });

  it('answers ACCOUNT_NOT_FOUND for an account that is not there or not the caller’s, alike', async () => {
    const owner = await caller();
    const stranger = await caller();
    const [theirs] = (await owner.sync([entry('private.example', 'private.example')])).accounts;
    for (const account of [{ account_id: theirs.account_id }, { account_id: 'acc_000000000000000000000000' }]) {
      const error = await stranger.fail('which_account', { account });
      assert.equal(error.code, 'ACCOUNT_NOT_FOUND');
      assert.equal(error.field, 'account.account_id');
      assert.doesNotMatch(error.message, /private\.example/);
    }
    const byKey = await stranger.fail('which_account', { account: { brand: { domain: 'private.example' }, operator: 'private.example' } });
    assert.equal(byKey.code, 'ACCOUNT_NOT_FOUND');
    const sandboxMissing = await owner.fail('which_account', { account: { brand: { domain: 'private.example' }, operator: 'private.example', sandbox: true } });
    assert.equal(sandboxMissing.code, 'ACCOUNT_NOT_FOUND', 'a production account does not answer for a sandbox one');
  });

  it('answers ACCOUNT_AMBIGUOUS when a reference without brand_id matches several brands of the house', async () => {
    const buyer = await caller();
    const [spark] = (await buyer.sync([entry('house.example', 'agency.example', { brand_id: 'spark' }), entry('house.example', 'agency.example', { brand_id: 'glow' })])).accounts;
    const error = await buyer.fail('which_account', { account: { brand: { domain: 'house.example' }, operator: 'agency.example' } });
    assert.equal(error.code, 'ACCOUNT_AMBIGUOUS');
    assert.equal(error.field, 'account.brand.brand_id');
    assert.equal((await resolved(buyer, { brand: { domain: 'house.example', brand_id: 'spark' }, operator: 'agency.example' })).account_id, spark.account_id);

    const [single] = (await buyer.sync([entry('one-brand.example', 'agency.example', { brand_id: 'only' })])).accounts;
    assert.equal((await resolved(buyer, { brand: { domain: 'one-brand.example' }, operator: 'agency.example' })).account_id, single.account_id, 'one brand of the house: no ambiguity');
  });

  it('refuses a reference that is not a core/account-ref.json, naming the field', async () => {
    const buyer = await caller();
    const error = await buyer.fail('which_account', { account: { account_id: 'acc_x', operator: 'agency.example' } });
    assert.equal(error.code, 'INVALID_REQUEST');
    assert.equal(error.field, 'account.operator');
  });

  it('resolves a closed account by id only, and lets a task that spends refuse every account but an active one', async () => {
    const buyer = await caller();
    const names = ['active', 'pending', 'payment', 'suspended', 'closed'];
    const accounts = (await buyer.sync(names.map((n) => entry(`${n}.status.example`, 'agency.example')))).accounts as Json[];
    const byName = new Map(names.map((n, i) => [n, accounts[i]!.account_id as string]));
    const statuses: Array<[string, AccountStatus]> = [['pending', 'pending_approval'], ['payment', 'payment_required'], ['suspended', 'suspended'], ['closed', 'closed']];
    for (const [name, status] of statuses) await setAccountStatus(server.db, byName.get(name)!, status, { by: 'seller:ops', at: new Date() });

    assert.deepEqual(await buyer.call('spend', { account: { account_id: byName.get('active') } }), { status: 'completed', spent_on: byName.get('active') });
    const refusals = [];
    for (const name of ['pending', 'payment', 'suspended', 'closed']) refusals.push((await buyer.fail('spend', { account: { account_id: byName.get(name) } })).code);
    assert.deepEqual(refusals, ['ACCOUNT_SETUP_REQUIRED', 'ACCOUNT_PAYMENT_REQUIRED', 'ACCOUNT_SUSPENDED', 'ACCOUNT_SUSPENDED']);

    assert.equal((await resolved(buyer, { account_id: byName.get('closed') })).status, 'closed');
    const closedByKey = await buyer.fail('which_account', { account: { brand: { domain: 'closed.status.example' }, operator: 'agency.example' } });
    assert.equal(closedByKey.code, 'ACCOUNT_NOT_FOUND', 'a closed account gave up its natural key');
  });
});
