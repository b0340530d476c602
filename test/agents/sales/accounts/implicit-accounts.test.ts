import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { mcpClient } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../../support/identity.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { banner } from '../creatives/harness.ts';

/** Each task's published response schema: every answer of these tests is checked against it. */
const published: Record<string, string> = {
  get_products: '/schemas/3.0.6/media-buy/get-products-response.json',
  create_media_buy: '/schemas/3.0.6/media-buy/create-media-buy-response.json',
  update_media_buy: '/schemas/3.0.6/media-buy/update-media-buy-response.json',
  get_media_buys: '/schemas/3.0.6/media-buy/get-media-buys-response.json',
  get_media_buy_delivery: '/schemas/3.0.6/media-buy/get-media-buy-delivery-response.json',
  sync_creatives: '/schemas/3.0.6/creative/sync-creatives-response.json',
  list_creatives: '/schemas/3.0.6/creative/list-creatives-response.json',
  list_accounts: '/schemas/3.0.6/account/list-accounts-response.json',
  comply_test_controller: '/schemas/3.0.6/compliance/comply-test-controller-response.json',
  get_ap_capabilities: '/schemas/3.0.6/protocol/get-ap-capabilities-response.json',
};

/** The natural key of the buyers' tools' test kit, as they send it. */
const acme = { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' };
const acmeSandbox = { ...acme, sandbox: true };

interface Buyer {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<Json>;
  fail(name: string, args: Record<string, unknown>): Promise<Json>;
  accounts(): Promise<Json[]>;
}

/** A fresh organization calling the sales agent over MCP, every answer checked against its published schema. */
async function newBuyer(server: TestServer): Promise<Buyer> {
  const token = await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug);
  const client = await mcpClient(server.url, '/sales', { authorization: `Bearer ${token}` });
  const raw = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as Json;
    return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
  };
  const b: Buyer = {
    client,
    async call(name, args) {
      const { isError, payload } = await raw(name, args);
      assert.equal(isError, false, `${name} failed: ${JSON.stringify(payload)}`);
      if (published[name])
        assert.deepEqual(validateSchema(published[name], payload).errors, [], `${name} answers its published schema`);
      return payload;
    },
    async fail(name, args) {
      const { isError, payload } = await raw(name, args);
      assert.equal(isError, true, `${name} should have failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
      return payload;
    },
    accounts: async () => (await b.call('list_accounts', {})).accounts as Json[],
  };
  return b;
}

const day = 24 * 3600 * 1000;

eachEngine('sales agent: implicit accounts, as buyers name them', (engine) => {
  const clock = new ManualClock();
  const at = (days: number) => new Date(clock.now().getTime() + days * day).toISOString();
  const buyArgs = (account: Json, more: Record<string, unknown> = {}) => ({
    idempotency_key: randomUUID(),
    account,
    brand: { domain: 'acmeoutdoor.example' },
    start_time: at(10),
    end_time: at(40),
    packages: [{ product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
    ...more,
  });

  describe('require_operator_auth false (the default)', () => {
    let server: TestServer;
    const buyers: Buyer[] = [];
    const buyer = async () => {
      const b = await newBuyer(server);
      buyers.push(b);
      return b;
    };
    before(async () => {
      server = await startTestServer(engine, { env: { AGENTS: 'true' }, deps: { clock } });
    });
    after(async () => {
      for (const b of buyers) await b.client.close();
      await server.close();
    });

    it('says so in get_ap_capabilities', async () => {
      const b = await buyer();
      const capabilities = await b.call('get_ap_capabilities', {});
      assert.equal(capabilities.account.require_operator_auth, false);
      assert.equal(capabilities.account.required_for_products, false);
    });

    it('get_products with an account it has never seen answers products, and declares nothing', async () => {
      const b = await buyer();
      for (const account of [acme, acmeSandbox, { account_id: 'acc_000000000000000000000000' }]) {
        const answer = await b.call('get_products', {
          buying_mode: 'brief',
          brief: 'Display inventory on news content.',
          brand: { domain: 'acmeoutdoor.example' },
          account,
        });
        assert.ok((answer.products as Json[]).length > 0, JSON.stringify(account));
        assert.equal(answer.sandbox, account === acmeSandbox, 'the reference says whether the answer is sandbox');
      }
      assert.deepEqual(await b.accounts(), []);
    });

    it('create_media_buy with an undeclared sandbox natural key buys on it, and list_accounts then shows the account', async () => {
      const b = await buyer();
      const buy = await b.call('create_media_buy', buyArgs(acmeSandbox));
      assert.equal(buy.sandbox, true);
      assert.equal(buy.status, 'pending_creatives');
      const [account, ...others] = await b.accounts();
      assert.equal(others.length, 0);
      assert.deepEqual(
        [account!.status, account!.sandbox, account!.operator, account!.brand],
        ['active', true, 'pinnacle-agency.example', { domain: 'acmeoutdoor.example' }],
      );
      assert.equal(buy.account.account_id, account!.account_id, 'the buy is on the declared account');

      const listed = await b.call('get_media_buys', { account: acmeSandbox, status_filter: ['pending_creatives'] });
      assert.deepEqual(
        (listed.media_buys as Json[]).map((m) => m.media_buy_id),
        [buy.media_buy_id],
      );
      const again = await b.call('create_media_buy', buyArgs(acmeSandbox));
      assert.equal(again.account.account_id, account!.account_id, 'named again, the same account');
      assert.equal((await b.accounts()).length, 1);
    });

    it('a production natural key is declared too, active as sync_accounts opens accounts', async () => {
      const b = await buyer();
      const buy = await b.call('create_media_buy', buyArgs(acme));
      assert.equal(buy.sandbox, false);
      const [account] = await b.accounts();
      assert.deepEqual(
        [account!.account_id, account!.status, account!.sandbox],
        [buy.account.account_id, 'active', false],
      );
    });

    it('update_media_buy of an unknown buy under an undeclared natural key is MEDIA_BUY_NOT_FOUND', async () => {
      const b = await buyer();
      const error = await b.fail('update_media_buy', {
        idempotency_key: randomUUID(),
        account: acme,
        media_buy_id: 'does-not-exist-invalid-transitions-v1',
        paused: true,
      });
      assert.equal(error.code, 'MEDIA_BUY_NOT_FOUND');
      assert.deepEqual(await b.accounts(), [], 'a refused call leaves nothing behind');
    });

    it('list tasks under an undeclared natural key answer empty lists, and declare nothing', async () => {
      const b = await buyer();
      // The caller has buys on another account: none of them is under the undeclared key.
      await b.call(
        'create_media_buy',
        buyArgs({ brand: { domain: 'other.example' }, operator: 'pinnacle-agency.example', sandbox: true }),
      );
      const buys = await b.call('get_media_buys', {
        account: acmeSandbox,
        status_filter: ['pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled'],
      });
      assert.deepEqual(buys.media_buys, []);
      const delivery = await b.call('get_media_buy_delivery', {
        account: acmeSandbox,
        status_filter: ['pending_creatives', 'pending_start', 'active', 'paused', 'completed'],
      });
      assert.deepEqual(delivery.media_buy_deliveries, []);
      const creatives = await b.call('list_creatives', { account: acmeSandbox });
      assert.deepEqual(creatives.creatives, []);
      assert.equal((await b.accounts()).length, 1, 'only the account bought on');
    });

    it('sync_creatives and the test controller declare the account they act on', async () => {
      const b = await buyer();
      const synced = await b.call('sync_creatives', {
        idempotency_key: randomUUID(),
        account: acmeSandbox,
        creatives: [banner(server, 'implicit_banner')],
      });
      assert.equal((synced.creatives as Json[])[0]!.action, 'created');
      const [account] = await b.accounts();
      assert.equal(account!.sandbox, true);
      assert.deepEqual(
        ((await b.call('list_creatives', { account: acmeSandbox })).creatives as Json[]).map((c) => c.creative_id),
        ['implicit_banner'],
      );

      const other = await buyer();
      const forced = await other.call('comply_test_controller', {
        account: acmeSandbox,
        scenario: 'force_media_buy_status',
        params: { media_buy_id: 'mb_unknown', status: 'paused' },
      });
      assert.deepEqual([forced.success, forced.error], [false, 'NOT_FOUND'], 'the account is there; the buy is not');
      const [declared] = await other.accounts();
      assert.deepEqual([declared!.sandbox, declared!.status], [true, 'active']);
      assert.notEqual(
        declared!.account_id,
        account!.account_id,
        'another organization’s same natural key is another account',
      );
    });
  });

  describe('require_operator_auth true (SALES_REQUIRE_OPERATOR_AUTH)', () => {
    let server: TestServer;
    let b: Buyer;
    before(async () => {
      server = await startTestServer(engine, {
        env: { AGENTS: 'true', SALES_REQUIRE_OPERATOR_AUTH: 'true' },
        deps: { clock },
      });
      b = await newBuyer(server);
    });
    after(async () => {
      await b.client.close();
      await server.close();
    });

    it('says so in get_ap_capabilities, and answers ACCOUNT_NOT_FOUND for a natural key not declared with sync_accounts', async () => {
      assert.equal((await b.call('get_ap_capabilities', {})).account.require_operator_auth, true);
      for (const account of [acme, acmeSandbox]) {
        const error = await b.fail('create_media_buy', buyArgs(account));
        assert.equal(error.code, 'ACCOUNT_NOT_FOUND');
        const update = await b.fail('update_media_buy', {
          idempotency_key: randomUUID(),
          account,
          media_buy_id: 'mb_unknown',
          paused: true,
        });
        assert.equal(update.code, 'ACCOUNT_NOT_FOUND');
        assert.equal((await b.fail('get_media_buys', { account })).code, 'ACCOUNT_NOT_FOUND');
      }
      // Products still never depend on an account.
      const products = await b.call('get_products', {
        buying_mode: 'brief',
        brief: 'Display inventory on news content.',
        account: acmeSandbox,
      });
      assert.ok((products.products as Json[]).length > 0);
      assert.deepEqual(await b.accounts(), []);

      await b.call('sync_accounts', {
        idempotency_key: randomUUID(),
        accounts: [{ ...acmeSandbox, billing: 'operator' }],
      });
      const buy = await b.call('create_media_buy', buyArgs(acmeSandbox));
      assert.equal(buy.sandbox, true, 'a declared account works as before');
    });
  });
});
