import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setAccountStatus } from '../../../../src/agents/sales/accounts/index.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import {
  callerWith,
  entry,
  organizationCaller,
  publicToken,
  salesTenant,
  twoKeysOfOneOrganization,
  type Caller,
} from './harness.ts';

eachEngine('sales agent: list_accounts', (engine) => {
  let server: TestServer;
  const callers: Caller[] = [];
  const caller = async () => {
    const made = await organizationCaller(server);
    callers.push(made);
    return made;
  };
  const idsOf = (answer: Json) => answer.accounts.map((a: Json) => a.account_id);

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [salesTenant()] } });
  });
  after(async () => {
    for (const c of callers) await c.client.close();
    await server.close();
  });

  it('lists the caller’s accounts as core/account.json, filtered by status and by sandbox', async () => {
    const buyer = await caller();
    const [live, sandbox, suspended] = (
      await buyer.sync([
        entry('list.example', 'list.example'),
        entry('list.example', 'list.example', { sandbox: true }),
        entry('paused.example', 'list.example'),
      ])
    ).accounts;
    await setAccountStatus(server.db, suspended.account_id, 'suspended', { by: 'seller:ops', at: new Date() });

    const all = await buyer.list();
    assert.deepEqual(idsOf(all), [live.account_id, sandbox.account_id, suspended.account_id]);
    assert.deepEqual(all.pagination, { has_more: false, total_count: 3 });
    assert.deepEqual(all.accounts[0], {
      account_id: live.account_id,
      name: 'list.example',
      status: 'active',
      brand: { domain: 'list.example' },
      operator: 'list.example',
      billing: 'operator',
      payment_terms: 'net_30',
      account_scope: 'operator_brand',
      sandbox: false,
    });
    assert.deepEqual(idsOf(await buyer.list({ sandbox: true })), [sandbox.account_id]);
    assert.deepEqual(idsOf(await buyer.list({ sandbox: false })), [live.account_id, suspended.account_id]);
    assert.deepEqual(idsOf(await buyer.list({ status: 'suspended' })), [suspended.account_id]);
    assert.deepEqual(idsOf(await buyer.list({ status: 'active', sandbox: false })), [live.account_id]);
    assert.deepEqual((await buyer.list({ status: 'closed' })).accounts, []);
  });

  it('pages through the accounts in the order they were made, each once', async () => {
    const buyer = await caller();
    const made = idsOf(
      await buyer.sync(['a', 'b', 'c', 'd', 'e'].map((name) => entry(`${name}.page.example`, 'page.example'))),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: Json[] = [];
    do {
      const page = await buyer.list({ pagination: { max_results: 2, ...(cursor ? { cursor } : {}) } });
      pages.push(page.pagination);
      seen.push(...idsOf(page));
      cursor = page.pagination.cursor;
    } while (cursor);
    assert.deepEqual(seen, made);
    assert.deepEqual(
      pages.map((p) => [p.has_more, p.total_count]),
      [
        [true, 5],
        [true, 5],
        [false, 5],
      ],
    );

    const bad = await buyer.fail('list_accounts', { pagination: { cursor: 'not-ours' } });
    assert.equal(bad.code, 'INVALID_REQUEST');
    assert.equal(bad.field, 'pagination.cursor');
  });

  it('shows each caller its own accounts only: an organization’s keys share them, other organizations and credentials do not see them', async () => {
    const [one, sameOrganization] = await twoKeysOfOneOrganization(server);
    const stranger = await caller();
    const publicCaller = await callerWith(server, { authorization: `Bearer ${publicToken}` });
    callers.push(one, sameOrganization, publicCaller);
    const ours = idsOf(await one.sync([entry('shared.example', 'shared.example')]));
    const publicOnes = idsOf(await publicCaller.sync([entry('shared.example', 'shared.example')]));

    assert.deepEqual(idsOf(await sameOrganization.list()), ours);
    assert.deepEqual(idsOf(await publicCaller.list()), publicOnes);
    assert.notDeepEqual(publicOnes, ours, 'the same natural key is a different account of a different caller');
    assert.deepEqual((await stranger.list()).accounts, []);
  });
});
