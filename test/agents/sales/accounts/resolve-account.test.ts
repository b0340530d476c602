import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { accountHistory, setAccountStatus, type AccountStatus } from '../../../../src/agents/sales/accounts/index.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { entry, organizationCaller, salesTenant, type Caller } from './harness.ts';

eachEngine('sales agent: resolving a request’s account', (engine) => {
  let server: TestServer;
  const callers: Caller[] = [];
  const caller = async (path = '/sales') => {
    const made = await organizationCaller(server, path);
    callers.push(made);
    return made;
  };
  const resolved = async (who: Caller, account: Json) => (await who.call('which_account', { account })).account as Json;
  const actedOn = async (who: Caller, account: Json) =>
    (await who.call('act_on_account', { account, idempotency_key: randomUUID() })).account as Json;

  before(async () => {
    // /sales: implicit accounts (what the sales agent advertises); /sales-strict: explicit ones.
    server = await startTestServer(engine, {
      deps: { tenants: [salesTenant(), salesTenant({ requireOperatorAuth: true }, '/sales-strict')] },
    });
  });
  after(async () => {
    for (const c of callers) await c.client.close();
    await server.close();
  });

  it('gives the task the account named by id or by natural key, sandbox meaning production when absent', async () => {
    const buyer = await caller();
    const [live, sandbox] = (
      await buyer.sync([
        entry('resolve.example', 'agency.example'),
        entry('resolve.example', 'agency.example', { sandbox: true }),
      ])
    ).accounts;
    const byId = await resolved(buyer, { account_id: live.account_id });
    assert.deepEqual(byId, (await buyer.list()).accounts[0]);
    assert.equal(byId.status, 'active');
    assert.equal(byId.sandbox, false);

    assert.equal(
      (await resolved(buyer, { brand: { domain: 'resolve.example' }, operator: 'agency.example' })).account_id,
      live.account_id,
    );
    assert.equal(
      (await resolved(buyer, { brand: { domain: 'resolve.example' }, operator: 'agency.example', sandbox: false }))
        .account_id,
      live.account_id,
    );
    const sandboxed = await resolved(buyer, {
      brand: { domain: 'resolve.example' },
      operator: 'agency.example',
      sandbox: true,
    });
    assert.deepEqual([sandboxed.account_id, sandboxed.sandbox], [sandbox.account_id, true]);
    assert.equal((await buyer.call('which_account', {})).account, null, 'no reference, no account');
  });

  it('answers ACCOUNT_NOT_FOUND for an id that is not there or not the caller’s, alike', async () => {
    const owner = await caller();
    const stranger = await caller();
    const [theirs] = (await owner.sync([entry('private.example', 'private.example')])).accounts;
    for (const account of [{ account_id: theirs.account_id }, { account_id: 'acc_000000000000000000000000' }]) {
      for (const task of ['which_account', 'act_on_account']) {
        const error = await stranger.fail(task, { account, idempotency_key: randomUUID() });
        assert.equal(error.code, 'ACCOUNT_NOT_FOUND');
        assert.equal(error.field, 'account.account_id');
        assert.doesNotMatch(error.message, /private\.example/);
      }
    }
  });

  it('implicit accounts: a natural key the caller has not declared reads as an account holding nothing, and declares itself when a task acts on it', async () => {
    const buyer = await caller();
    const key = { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' };
    const read = await resolved(buyer, key);
    assert.equal(read.undeclared, true);
    assert.equal(read.sandbox, false);
    assert.doesNotMatch(read.account_id, /^acc_/, 'an id no account has');
    assert.equal((await buyer.list()).accounts.length, 0, 'a read declares nothing');

    const declared = await actedOn(buyer, { ...key, sandbox: true });
    assert.match(declared.account_id, /^acc_[0-9a-f]{24}$/);
    const [listed] = (await buyer.list()).accounts;
    assert.deepEqual(declared, listed, 'recorded, and answered as list_accounts shows it');
    assert.equal(listed.status, 'active', 'as sync_accounts opens an account');
    assert.equal(listed.sandbox, true);
    assert.deepEqual(listed.brand, { domain: 'acmeoutdoor.example' });
    assert.equal(listed.operator, 'pinnacle-agency.example');
    assert.equal(listed.billing, 'agent');
    assert.equal(listed.payment_terms, 'net_30');
    const history = await accountHistory(server.db, listed.account_id);
    assert.deepEqual(
      history.map((h) => [h.change, h.status]),
      [['created', 'active']],
    );
    assert.match(history[0]!.changed_by, /^api_key:/);

    assert.equal(
      (await actedOn(buyer, { ...key, sandbox: true })).account_id,
      listed.account_id,
      'named again, the same account',
    );
    assert.equal((await resolved(buyer, { ...key, sandbox: true })).account_id, listed.account_id, 'and reads find it');
    const production = await actedOn(buyer, key);
    assert.notEqual(production.account_id, listed.account_id, 'the production account is another one');
    assert.deepEqual([production.status, production.sandbox], ['active', false]);

    // sync_accounts then finds the declared account and updates its terms, as for any account.
    const [synced] = (await buyer.sync([{ ...key, billing: 'operator', sandbox: true }])).accounts;
    assert.deepEqual([synced.account_id, synced.action, synced.billing], [listed.account_id, 'updated', 'operator']);
    assert.equal((await buyer.list()).accounts.length, 2);
  });

  it('implicit accounts: first calls at once on one undeclared key make one account', async () => {
    const buyer = await caller();
    const key = { brand: { domain: 'concurrent.example' }, operator: 'agency.example', sandbox: true };
    const answers = await Promise.all(Array.from({ length: 6 }, () => actedOn(buyer, key)));
    const [listed, ...more] = (await buyer.list()).accounts as Json[];
    assert.equal(more.length, 0, 'one account');
    assert.deepEqual(new Set(answers.map((a) => a.account_id)), new Set([listed!.account_id]));
    assert.equal((await accountHistory(server.db, listed!.account_id)).length, 1, 'created once');
  });

  it('implicit accounts: another caller naming the same natural key has its own account, never the owner’s', async () => {
    const owner = await caller();
    const stranger = await caller();
    const key = { brand: { domain: 'private.example' }, operator: 'private.example' };
    const [theirs] = (await owner.sync([{ ...key, billing: 'operator' }])).accounts;
    const read = await resolved(stranger, key);
    assert.equal(read.undeclared, true, 'the owner’s account does not answer for the stranger');
    const own = await actedOn(stranger, key);
    assert.notEqual(own.account_id, theirs.account_id);
    assert.deepEqual(
      (await stranger.list()).accounts.map((a: Json) => a.account_id),
      [own.account_id],
    );
    assert.deepEqual(
      (await owner.list()).accounts.map((a: Json) => a.account_id),
      [theirs.account_id],
    );
  });

  it('explicit accounts (require_operator_auth): an undeclared natural key is ACCOUNT_NOT_FOUND, read or acted on, sandbox or not', async () => {
    const buyer = await caller('/sales-strict');
    const [declared] = (await buyer.sync([entry('strict.example', 'agency.example')])).accounts;
    assert.equal(
      (await actedOn(buyer, { brand: { domain: 'strict.example' }, operator: 'agency.example' })).account_id,
      declared.account_id,
    );
    for (const account of [
      { brand: { domain: 'strict.example' }, operator: 'agency.example', sandbox: true },
      { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' },
    ]) {
      for (const task of ['which_account', 'act_on_account']) {
        const error = await buyer.fail(task, { account, idempotency_key: randomUUID() });
        assert.equal(error.code, 'ACCOUNT_NOT_FOUND', `${task} ${JSON.stringify(account)}`);
        assert.equal(error.field, 'account');
      }
    }
    assert.equal((await buyer.list()).accounts.length, 1, 'nothing declared');
  });

  it('a task the account only informs never fails on an account it does not know, in either model', async () => {
    for (const path of ['/sales', '/sales-strict']) {
      const buyer = await caller(path);
      const byKey = (
        await buyer.call('inform_with_account', {
          account: { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example', sandbox: true },
        })
      ).account as Json;
      assert.deepEqual([byKey.sandbox, byKey.undeclared], [true, true], path);
      const byId = (
        await buyer.call('inform_with_account', { account: { account_id: 'acc_000000000000000000000000' } })
      ).account as Json;
      assert.deepEqual([byId.account_id, byId.sandbox], ['acc_000000000000000000000000', false], path);
      assert.equal((await buyer.list()).accounts.length, 0, `${path}: nothing declared`);
    }
  });

  it('answers ACCOUNT_AMBIGUOUS when a reference without brand_id matches several brands of the house', async () => {
    const buyer = await caller();
    const [spark] = (
      await buyer.sync([
        entry('house.example', 'agency.example', { brand_id: 'spark' }),
        entry('house.example', 'agency.example', { brand_id: 'glow' }),
      ])
    ).accounts;
    const error = await buyer.fail('which_account', {
      account: { brand: { domain: 'house.example' }, operator: 'agency.example' },
    });
    assert.equal(error.code, 'ACCOUNT_AMBIGUOUS');
    assert.equal(error.field, 'account.brand.brand_id');
    const acting = await buyer.fail('act_on_account', {
      account: { brand: { domain: 'house.example' }, operator: 'agency.example' },
      idempotency_key: randomUUID(),
    });
    assert.equal(acting.code, 'ACCOUNT_AMBIGUOUS', 'a task that acts declares nothing on an ambiguous key');
    assert.equal((await buyer.list()).accounts.length, 2);
    assert.equal(
      (await resolved(buyer, { brand: { domain: 'house.example', brand_id: 'spark' }, operator: 'agency.example' }))
        .account_id,
      spark.account_id,
    );

    const [single] = (await buyer.sync([entry('one-brand.example', 'agency.example', { brand_id: 'only' })])).accounts;
    assert.equal(
      (await resolved(buyer, { brand: { domain: 'one-brand.example' }, operator: 'agency.example' })).account_id,
      single.account_id,
      'one brand of the house: no ambiguity',
    );
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
    const accounts = (await buyer.sync(names.map((n) => entry(`${n}.status.example`, 'agency.example'))))
      .accounts as Json[];
    const byName = new Map(names.map((n, i) => [n, accounts[i]!.account_id as string]));
    const statuses: Array<[string, AccountStatus]> = [
      ['pending', 'pending_approval'],
      ['payment', 'payment_required'],
      ['suspended', 'suspended'],
      ['closed', 'closed'],
    ];
    for (const [name, status] of statuses)
      await setAccountStatus(server.db, byName.get(name)!, status, { by: 'seller:ops', at: new Date() });

    assert.deepEqual(await buyer.call('spend', { account: { account_id: byName.get('active') } }), {
      status: 'completed',
      spent_on: byName.get('active'),
    });
    const refusals = [];
    for (const name of ['pending', 'payment', 'suspended', 'closed'])
      refusals.push((await buyer.fail('spend', { account: { account_id: byName.get(name) } })).code);
    assert.deepEqual(refusals, [
      'ACCOUNT_SETUP_REQUIRED',
      'ACCOUNT_PAYMENT_REQUIRED',
      'ACCOUNT_SUSPENDED',
      'ACCOUNT_SUSPENDED',
    ]);

    assert.equal((await resolved(buyer, { account_id: byName.get('closed') })).status, 'closed');
    const closedKey = { brand: { domain: 'closed.status.example' }, operator: 'agency.example' };
    assert.equal((await resolved(buyer, closedKey)).undeclared, true, 'a closed account gave up its natural key');
    const reopened = await actedOn(buyer, closedKey);
    assert.notEqual(
      reopened.account_id,
      byName.get('closed'),
      'named again, the key opens a new account, as a sync of it would',
    );
    assert.equal(reopened.status, 'active');
  });
});
