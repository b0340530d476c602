import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { accountHistory, setAccountStatus } from '../../../../src/agents/sales/accounts/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { entry, organizationCaller, salesTenant, twoKeysOfOneOrganization, type Caller } from './harness.ts';

eachEngine('sales agent: sync_accounts', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const callers: Caller[] = [];
  const caller = async (make = organizationCaller) => {
    const made = await make(server);
    callers.push(made);
    return made;
  };
  const ids = (answer: Json) => answer.accounts.map((a: Json) => a.account_id);

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [salesTenant()], clock } });
  });
  after(async () => {
    for (const c of callers) await c.client.close();
    await server.close();
  });

  it('creates accounts with seller-assigned ids, active, echoing what was declared but the bank details', async () => {
    const buyer = await caller();
    const billingEntity = {
      legal_name: 'Acme Corporation GmbH',
      vat_id: 'DE987654321',
      bank: { account_holder: 'Acme Corporation GmbH', iban: 'DE75512108001245126199' },
    };
    const answer = await buyer.sync([
      entry('nova-brands.com', 'pinnacle-media.com', { brand_id: 'spark' }),
      entry('acme-corp.com', 'acme-corp.com', {
        billing: 'advertiser',
        billing_entity: billingEntity,
        payment_terms: 'net_60',
      }),
    ]);
    assert.equal(answer.dry_run, false);
    const [spark, acme] = answer.accounts;
    for (const account of answer.accounts) {
      assert.match(account.account_id, /^acc_[0-9a-f]{24}$/);
      assert.equal(account.action, 'created');
      assert.equal(account.status, 'active');
      assert.equal(account.sandbox, false);
    }
    assert.notEqual(spark.account_id, acme.account_id);
    assert.deepEqual(spark.brand, { domain: 'nova-brands.com', brand_id: 'spark' });
    assert.equal(spark.operator, 'pinnacle-media.com');
    assert.equal(spark.name, 'spark c/o pinnacle-media.com');
    assert.equal(spark.payment_terms, 'net_30', 'the seller’s default terms when none are asked');
    assert.equal(acme.name, 'acme-corp.com');
    assert.equal(acme.billing, 'advertiser');
    assert.equal(acme.payment_terms, 'net_60');
    assert.deepEqual(
      acme.billing_entity,
      { legal_name: 'Acme Corporation GmbH', vat_id: 'DE987654321' },
      'bank details are write-only',
    );
  });

  it('answers unchanged on a resync with the same terms and updated when terms change, keeping each account’s id', async () => {
    const buyer = await caller();
    const accounts = [
      entry('nova-brands.com', 'pinnacle-media.com', { brand_id: 'spark' }),
      entry('nova-brands.com', 'pinnacle-media.com', { brand_id: 'glow' }),
    ];
    const first = await buyer.sync(accounts);
    const again = await buyer.sync(accounts);
    assert.deepEqual(
      again.accounts.map((a: Json) => a.action),
      ['unchanged', 'unchanged'],
    );
    assert.deepEqual(ids(again), ids(first));

    const changed = await buyer.sync([accounts[0]!, { ...accounts[1], billing: 'agent', payment_terms: 'prepay' }]);
    assert.deepEqual(
      changed.accounts.map((a: Json) => a.action),
      ['unchanged', 'updated'],
    );
    assert.deepEqual(ids(changed), ids(first));
    assert.equal(changed.accounts[1].billing, 'agent');
    assert.equal(changed.accounts[1].payment_terms, 'prepay');
    const listed = await buyer.list();
    assert.deepEqual(
      listed.accounts.map((a: Json) => [a.account_id, a.billing]),
      [
        [first.accounts[0].account_id, 'operator'],
        [first.accounts[1].account_id, 'agent'],
      ],
    );
  });

  it('records every change with who made it and when', async () => {
    const [one, other] = await twoKeysOfOneOrganization(server);
    callers.push(one, other);
    const created = clock.now();
    const [account] = (await one.sync([entry('history.example', 'history.example')])).accounts;
    clock.advance(60_000);
    await other.sync([entry('history.example', 'history.example', { payment_terms: 'net_90' })], {
      delete_missing: true,
    });
    clock.advance(60_000);
    await other.sync([], { delete_missing: true });
    const history = await accountHistory(server.db, account.account_id);
    assert.deepEqual(
      history.map((h) => [h.change, h.status]),
      [
        ['created', 'active'],
        ['updated', 'active'],
        ['closed', 'closed'],
      ],
    );
    assert.deepEqual(
      history.map((h) => h.changed_at.getTime()),
      [created.getTime(), created.getTime() + 60_000, created.getTime() + 120_000],
    );
    assert.match(history[0]!.changed_by, /^api_key:/);
    assert.notEqual(history[0]!.changed_by, history[1]!.changed_by, 'each key of the organization is named as itself');
    assert.equal(history[1]!.changed_by, history[2]!.changed_by);
  });

  it('previews with dry_run, writing nothing: new accounts get no id, changes are answered but not made', async () => {
    const buyer = await caller();
    const [kept] = (await buyer.sync([entry('dry.example', 'dry.example')])).accounts;
    const preview = await buyer.sync(
      [entry('dry.example', 'dry.example', { payment_terms: 'net_15' }), entry('new.example', 'dry.example')],
      { dry_run: true, delete_missing: true },
    );
    assert.equal(preview.dry_run, true);
    assert.deepEqual(
      preview.accounts.map((a: Json) => [a.account_id, a.action]),
      [
        [kept.account_id, 'updated'],
        [undefined, 'created'],
      ],
    );
    assert.equal(preview.accounts[0].payment_terms, 'net_15');

    const closing = await buyer.sync([], { dry_run: true, delete_missing: true });
    assert.deepEqual(
      closing.accounts.map((a: Json) => [a.account_id, a.action, a.status]),
      [[kept.account_id, 'updated', 'closed']],
    );

    const listed = await buyer.list();
    assert.deepEqual(
      listed.accounts.map((a: Json) => [a.account_id, a.status, a.payment_terms]),
      [[kept.account_id, 'active', 'net_30']],
    );
    assert.equal((await accountHistory(server.db, kept.account_id)).length, 1);
  });

  it('closes with delete_missing the caller’s accounts the request leaves out, and only the caller’s', async () => {
    const buyer = await caller();
    const neighbour = await caller();
    const [theirs] = (await neighbour.sync([entry('gone.example', 'gone.example')])).accounts;
    const [stays, goes] = (
      await buyer.sync([entry('stays.example', 'stays.example'), entry('gone.example', 'gone.example')])
    ).accounts;
    const answer = await buyer.sync([entry('stays.example', 'stays.example')], { delete_missing: true });
    assert.deepEqual(
      answer.accounts.map((a: Json) => [a.account_id, a.action, a.status]),
      [
        [stays.account_id, 'unchanged', 'active'],
        [goes.account_id, 'updated', 'closed'],
      ],
    );
    assert.deepEqual(
      (await buyer.list({ status: 'closed' })).accounts.map((a: Json) => a.account_id),
      [goes.account_id],
    );
    assert.deepEqual(
      (await neighbour.list()).accounts.map((a: Json) => [a.account_id, a.status]),
      [[theirs.account_id, 'active']],
    );

    // Closed is terminal: the key declared again is a new account.
    const [reopened] = (await buyer.sync([entry('gone.example', 'gone.example')])).accounts;
    assert.equal(reopened.action, 'created');
    assert.notEqual(reopened.account_id, goes.account_id);
  });

  it('keeps sandbox and production accounts of one brand and operator apart', async () => {
    const buyer = await caller();
    const answer = await buyer.sync([
      entry('play.example', 'agency.example'),
      entry('play.example', 'agency.example', { sandbox: true }),
    ]);
    const [live, sandbox] = answer.accounts;
    assert.deepEqual([live.action, live.sandbox, sandbox.action, sandbox.sandbox], ['created', false, 'created', true]);
    assert.notEqual(live.account_id, sandbox.account_id);
    assert.equal(sandbox.name, 'play.example c/o agency.example (sandbox)');
    const again = await buyer.sync([entry('play.example', 'agency.example', { sandbox: true })]);
    assert.deepEqual(
      again.accounts.map((a: Json) => [a.account_id, a.action]),
      [[sandbox.account_id, 'unchanged']],
    );
  });

  it('keeps a status the seller set when the buyer syncs the account again', async () => {
    const buyer = await caller();
    const [account] = (await buyer.sync([entry('held.example', 'held.example')])).accounts;
    await setAccountStatus(server.db, account.account_id, 'suspended', { by: 'seller:ops', at: clock.now() });
    const again = await buyer.sync([entry('held.example', 'held.example', { billing: 'agent' })]);
    assert.deepEqual(
      again.accounts.map((a: Json) => [a.account_id, a.action, a.status]),
      [[account.account_id, 'updated', 'suspended']],
    );
  });

  it('refuses a request naming one account twice, or breaking the published schema, and writes nothing', async () => {
    const buyer = await caller();
    const twice = await buyer.fail('sync_accounts', {
      idempotency_key: randomUUID(),
      accounts: [
        entry('twice.example', 'twice.example'),
        entry('other.example', 'twice.example'),
        entry('twice.example', 'twice.example', { billing: 'agent' }),
      ],
    });
    assert.equal(twice.code, 'INVALID_REQUEST');
    assert.equal(twice.field, 'accounts[2]');
    const badDomain = await buyer.fail('sync_accounts', {
      idempotency_key: randomUUID(),
      accounts: [entry('Not A Domain', 'twice.example')],
    });
    assert.equal(badDomain.code, 'INVALID_REQUEST');
    assert.equal(badDomain.field, 'accounts[0].brand.domain');
    assert.deepEqual((await buyer.list()).accounts, []);
  });

  it('replays a retried sync from its idempotency_key without syncing again, and refuses the key for another request', async () => {
    const buyer = await caller();
    const request = { idempotency_key: randomUUID(), accounts: [entry('retry.example', 'retry.example')] };
    const first = await buyer.call('sync_accounts', request);
    const retried = await buyer.call('sync_accounts', request);
    assert.equal(retried.replayed, true);
    assert.deepEqual({ ...retried, replayed: undefined }, { ...first, replayed: undefined });
    assert.equal(retried.accounts[0].action, 'created', 'the first answer, not a second sync’s “unchanged”');
    assert.equal((await buyer.list()).accounts.length, 1);
    assert.equal((await accountHistory(server.db, first.accounts[0].account_id)).length, 1);

    const conflict = await buyer.fail('sync_accounts', {
      ...request,
      accounts: [entry('retry.example', 'retry.example', { billing: 'agent' })],
    });
    assert.equal(conflict.code, 'IDEMPOTENCY_CONFLICT');
  });
});
