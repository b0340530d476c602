import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { governanceAgent } from '../../../src/agents/governance/index.ts';
import { demoCatalogPath, loadCatalogFile, salesAgent } from '../../../src/agents/sales/index.ts';
import { demoSignalsPath, loadSignalsCatalog, signalsAgent } from '../../../src/agents/signals/index.ts';
import { brandAgent } from '../../../src/agents/brand/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { engines } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startTlsFront, type TlsFront } from '../../support/tls-front.ts';

const published: Record<string, string> = {
  sync_accounts: '/schemas/3.0.6/account/sync-accounts-response.json',
  sync_governance: '/schemas/3.0.6/account/sync-governance-response.json',
  activate_signal: '/schemas/3.0.6/signals/activate-signal-response.json',
  acquire_rights: '/schemas/3.0.6/brand/acquire-rights-response.json',
  create_media_buy: '/schemas/3.0.6/media-buy/create-media-buy-response.json',
  get_media_buys: '/schemas/3.0.6/media-buy/get-media-buys-response.json',
  comply_test_controller: '/schemas/3.0.6/compliance/comply-test-controller-response.json',
  sync_plans: '/schemas/3.0.6/governance/sync-plans-response.json',
  check_governance: '/schemas/3.0.6/governance/check-governance-response.json',
  get_plan_audit_logs: '/schemas/3.0.6/governance/get-plan-audit-logs-response.json',
};

/** An agent called over MCP (the official SDK client), each answer checked against its published schema. */
function caller(client: Client) {
  const raw = async (task: string, args: Json) => {
    const result = (await client.callTool({ name: task, arguments: args })) as Json;
    return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
  };
  return {
    client,
    async call(task: string, args: Json): Promise<Json> {
      const { isError, payload } = await raw(task, args);
      assert.equal(isError, false, `${task} failed: ${JSON.stringify(payload)}`);
      const { replayed: _, ...body } = payload;
      // check_governance's `status` is its decision, beside the envelope's.
      if (published[task]) assert.deepEqual(validateSchema(published[task]!, body).errors, [], task);
      return payload;
    },
    async fail(task: string, args: Json): Promise<Json> {
      const { isError, payload } = await raw(task, args);
      assert.equal(isError, true, `${task} should have failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
      return payload;
    },
  };
}
type Caller = ReturnType<typeof caller>;

/**
 * The whole governance loop across the deployment's own agents, behind a TLS front (governance
 * agent URLs must be https): a buyer registers its governance agent with the seller, syncs a plan,
 * gets an intent approval, buys with it; the seller verifies the token, runs its own execution
 * check and books; delivery past what the buy committed is denied at the seller's next report, and
 * the seller halts the buy. The audit log shows each step. With the governance agent unreachable,
 * the seller halts before writing anything.
 */
for (const engine of engines) {
  describe(`a governance-aware seller (${engine.name})`, () => {
    const clock = new ManualClock();
    let front: TlsFront;
    let server: TestServer;
    let token: string;
    let sales: Caller;
    let governance: Caller;
    let signals: Caller;
    let brand: Caller;
    const seller = () => `${front.url}/sales/mcp`;
    const governanceUrl = () => `${front.url}/governance/mcp`;

    before(async () => {
      clock.set(Date.parse('2027-01-10T00:00:00Z'));
      front = await startTlsFront();
      const base = () => front.url;
      const fetcher = front.fetcher();
      const tenants = [
        salesAgent({
          catalog: await loadCatalogFile(demoCatalogPath),
          base,
          governance: { fetcher, secret: 'a-test-secret-of-at-least-thirty-two-chars', clock },
        }),
        governanceAgent({ base, keys: { alg: 'ed25519', secret: undefined, clock, publishWindowSeconds: 300 } }),
        signalsAgent({
          catalog: await loadSignalsCatalog(demoSignalsPath),
          base,
          governance: { fetcher, secret: undefined, clock },
        }),
        brandAgent({
          base,
          brands: { record: async () => undefined, unlocks: async () => false },
          governance: { fetcher, secret: undefined, clock },
        }),
      ];
      server = await startTestServer(engine, { deps: { tenants, clock, fetcher } });
      front.forwardTo(server.url);
      token = await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug);
      const authorization = { authorization: `Bearer ${token}` };
      sales = caller(await mcpClient(server.url, '/sales', authorization));
      governance = caller(await mcpClient(server.url, '/governance', authorization));
      signals = caller(await mcpClient(server.url, '/signals', authorization));
      brand = caller(await mcpClient(server.url, '/brand', authorization));
    });
    // Each test starts before the buys' flight (the first moves the clock past their start).
    beforeEach(() => clock.set(Date.parse('2027-01-10T00:00:00Z')));
    after(async () => {
      await sales?.client.close();
      await governance?.client.close();
      await signals?.client.close();
      await brand?.client.close();
      await server?.close();
      await front?.close().catch(() => undefined);
    });

    /** A sandbox account of a brand of its own, governed by the deployment's governance agent; a plan of $10,000 for it. */
    async function governedAccount(total = 10_000): Promise<{ account: Json; domain: string; planId: string }> {
      const domain = `brand-${randomUUID().slice(0, 8)}.example`;
      const synced = await sales.call('sync_accounts', {
        idempotency_key: randomUUID(),
        accounts: [{ brand: { domain }, operator: domain, billing: 'operator', sandbox: true }],
      });
      const account = { account_id: (synced.accounts as Json[])[0]!.account_id };
      const registered = await sales.call('sync_governance', {
        idempotency_key: randomUUID(),
        accounts: [
          {
            account,
            governance_agents: [{ url: governanceUrl(), authentication: { schemes: ['Bearer'], credentials: token } }],
          },
        ],
      });
      assert.deepEqual(registered.accounts, [
        { account, status: 'synced', governance_agents: [{ url: governanceUrl() }] },
      ]);
      const planId = `plan_${randomUUID().slice(0, 8)}`;
      await governance.call('sync_plans', {
        idempotency_key: randomUUID(),
        plans: [
          {
            plan_id: planId,
            brand: { domain },
            objectives: 'Launch the spring range.',
            budget: { total, currency: 'USD', reallocation_threshold: 1000 },
            flight: { start: '2027-01-01T00:00:00Z', end: '2027-06-30T23:59:59Z' },
          },
        ],
      });
      return { account, domain, planId };
    }

    async function intent(planId: string, budget: number): Promise<string> {
      const approved = await governance.call('check_governance', {
        plan_id: planId,
        caller: 'https://buyer.example/orchestrator',
        tool: 'create_media_buy',
        payload: { budget, seller_agent_url: seller() },
      });
      assert.equal(approved.status, 'approved', JSON.stringify(approved));
      return approved.governance_context as string;
    }

    const buy = (account: Json, domain: string, more: Json) => ({
      idempotency_key: randomUUID(),
      account,
      brand: { domain },
      start_time: '2027-01-15T00:00:00Z',
      end_time: '2027-02-15T00:00:00Z',
      packages: [{ product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
      ...more,
    });

    /** Every buy the seller holds on the account, whatever its status. */
    const buysOf = async (account: Json) =>
      (
        await server.db.query<{ media_buy_id: string }>(
          `select media_buy_id from sales_media_buys where account_id = $1`,
          [account.account_id],
        )
      ).map((r) => r.media_buy_id);

    it('books a buy the plan approves, reports its delivery, and halts it when delivery leaves the plan', async () => {
      const { account, domain, planId } = await governedAccount();
      const governance_context = await intent(planId, 5000);

      const creative = {
        creative_id: `cr_${randomUUID().slice(0, 8)}`,
        name: 'Spring banner',
        format_id: { agent_url: `${front.url}/creative/mcp`, id: 'display_300x250' },
        assets: {
          banner_image: { asset_type: 'image', url: 'https://cdn.example.com/spring.png', width: 300, height: 250 },
          click_url: { asset_type: 'url', url: 'https://brand.example/landing' },
        },
      };
      const created = await sales.call(
        'create_media_buy',
        buy(account, domain, {
          plan_id: planId,
          governance_context,
          packages: [
            { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000, creatives: [creative] },
          ],
        }),
      );
      const mediaBuyId = created.media_buy_id as string;
      const tokens = await server.db.query<{ phase: string; sub: string; aud: string }>(
        `select phase, sub, aud from seller_governance_tokens where action_id = $1 order by phase`,
        [mediaBuyId],
      );
      assert.deepEqual(tokens, [
        { phase: 'intent', sub: planId, aud: seller() },
        { phase: 'purchase', sub: planId, aud: seller() },
      ]);

      // Delivery past the $5,000 the buy committed: the seller's next report is denied, and it halts the buy.
      clock.set(Date.parse('2027-01-20T00:00:00Z'));
      await runPass(server, 'sales:flight');
      await sales.call('comply_test_controller', {
        account,
        scenario: 'simulate_delivery',
        params: { media_buy_id: mediaBuyId, impressions: 500_000, reported_spend: { amount: 7500, currency: 'USD' } },
      });
      clock.advance(3_600_000);
      await runPass(server, 'sales:governance-delivery');
      const [halted] = (await sales.call('get_media_buys', { account, media_buy_ids: [mediaBuyId] }))
        .media_buys as Json[];
      assert.equal(halted!.status, 'paused');

      // The buyer cannot resume what its governance halted: the modification check is denied.
      const resumed = await sales.fail('update_media_buy', {
        idempotency_key: randomUUID(),
        account,
        media_buy_id: mediaBuyId,
        paused: false,
      });
      assert.equal(resumed.code, 'GOVERNANCE_DENIED');

      const log = await governance.call('get_plan_audit_logs', { plan_ids: [planId], include_entries: true });
      const entries = ((log.plans as Json[])[0]!.entries as Json[]).map((e) => [e.check_type, e.status]);
      assert.deepEqual(entries, [
        ['intent', 'approved'],
        ['execution', 'approved'],
        ['execution', 'denied'],
        ['execution', 'denied'],
      ]);
    });

    it('asks the governance agent before a governed buy spends more, with the buyer’s intent token', async () => {
      const { account, domain, planId } = await governedAccount();
      const created = await sales.call(
        'create_media_buy',
        buy(account, domain, { plan_id: planId, governance_context: await intent(planId, 5000) }),
      );
      const mediaBuyId = created.media_buy_id as string;
      const packageId = (created.packages as Json[])[0]!.package_id as string;
      const raise = (budget: number, more: Json = {}) => ({
        idempotency_key: randomUUID(),
        account,
        media_buy_id: mediaBuyId,
        packages: [{ package_id: packageId, budget }],
        ...more,
      });
      assert.equal((await sales.fail('update_media_buy', raise(8000))).code, 'PERMISSION_DENIED');
      const raised = await sales.call(
        'update_media_buy',
        raise(8000, { governance_context: await intent(planId, 3000) }),
      );
      assert.equal(raised.revision, 2);
      // The plan has $2,000 left: its agent refuses what would take $12,000 in all.
      const over = await sales.fail(
        'update_media_buy',
        raise(12_000, { governance_context: await intent(planId, 2000) }),
      );
      assert.equal(over.code, 'GOVERNANCE_DENIED');
      const phases = await server.db.query<{ phase: string }>(
        `select phase from seller_governance_tokens where action_id = $1 order by accepted_at, phase`,
        [mediaBuyId],
      );
      assert.deepEqual(phases.map((t) => t.phase).sort(), ['intent', 'intent', 'modification', 'purchase']);
      const log = await governance.call('get_plan_audit_logs', { plan_ids: [planId] });
      assert.equal(((log.plans as Json[])[0]!.budget as Json).committed, 8000);
    });

    it('refuses a buy on a governed account without a valid intent token, or one its plan denies, writing nothing', async () => {
      const { account, domain, planId } = await governedAccount();
      const missing = await sales.fail('create_media_buy', buy(account, domain, { plan_id: planId }));
      assert.equal(missing.code, 'PERMISSION_DENIED');
      const forged = await sales.fail(
        'create_media_buy',
        buy(account, domain, { plan_id: planId, governance_context: 'eyJhbGciOiJub25lIn0.e30.' }),
      );
      assert.equal(forged.code, 'PERMISSION_DENIED');
      const otherPlan = await sales.fail(
        'create_media_buy',
        buy(account, domain, { plan_id: 'plan_other', governance_context: await intent(planId, 5000) }),
      );
      assert.equal(otherPlan.code, 'PERMISSION_DENIED');
      // The buyer's intent is within the plan; what the seller plans to deliver ($15,000) is not.
      const over = await sales.fail(
        'create_media_buy',
        buy(account, domain, {
          plan_id: planId,
          governance_context: await intent(planId, 5000),
          packages: [{ product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 15_000 }],
        }),
      );
      assert.equal(over.code, 'GOVERNANCE_DENIED');
      assert.deepEqual(await buysOf(account), []);
    });

    it('books a governed buy that waits for the publisher under the id its approval is bound to', async () => {
      const { account, domain, planId } = await governedAccount(50_000);
      const finished = new Map<string, () => void>();
      const stop = server.app.taskWorker!.watch((e) => {
        if (e.status === 'completed') finished.get(e.taskId)?.();
      });
      try {
        const takeover = { product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18_000 };
        const accepted = await sales.call(
          'create_media_buy',
          buy(account, domain, {
            plan_id: planId,
            governance_context: await intent(planId, 18_000),
            packages: [takeover],
          }),
        );
        assert.equal(accepted.status, 'submitted');
        const [approved] = await server.db.query<{ action_id: string }>(
          `select action_id from seller_governed_actions where account_id = $1`,
          [account.account_id],
        );
        const done = new Promise<void>((resolve) => finished.set(accepted.task_id as string, resolve));
        const [stillOpen] = await server.db.query<{ status: string }>(
          `select status from agent_tasks where task_id = $1`,
          [accepted.task_id],
        );
        if (stillOpen?.status !== 'completed') await done;
        assert.deepEqual(await buysOf(account), [approved!.action_id]);
      } finally {
        stop();
      }
    });

    it('has the signals agent ask the governance agent before an activation on a governed account', async () => {
      const { account, planId } = await governedAccount();
      await signals.call('sync_governance', {
        idempotency_key: randomUUID(),
        accounts: [
          {
            account,
            governance_agents: [{ url: governanceUrl(), authentication: { schemes: ['Bearer'], credentials: token } }],
          },
        ],
      });
      const activation = (more: Json) => ({
        idempotency_key: randomUUID(),
        account,
        signal_agent_segment_id: 'agr_demo_adults_18_24',
        destinations: [{ type: 'agent', agent_url: `https://dsp-${randomUUID().slice(0, 6)}.example/mcp` }],
        ...more,
      });
      assert.equal((await signals.fail('activate_signal', activation({ plan_id: planId }))).code, 'PERMISSION_DENIED');
      // An approval addressed to the sales agent is not the signals agent's to use.
      assert.equal(
        (
          await signals.fail(
            'activate_signal',
            activation({ plan_id: planId, governance_context: await intent(planId, 100) }),
          )
        ).code,
        'PERMISSION_DENIED',
      );
      const approved = await governance.call('check_governance', {
        plan_id: planId,
        caller: 'https://buyer.example/orchestrator',
        tool: 'activate_signal',
        payload: { signal_agent_segment_id: 'agr_demo_adults_18_24', seller_agent_url: `${front.url}/signals/mcp` },
      });
      const live = await signals.call(
        'activate_signal',
        activation({ plan_id: planId, governance_context: approved.governance_context }),
      );
      assert.equal((live.deployments as Json[])[0]!.is_live as boolean, true);
      const [kept] = await server.db.query<{ n: number }>(
        `select count(*)::int as n from seller_governance_tokens where tenant = 'signals' and sub = $1`,
        [planId],
      );
      assert.equal(kept!.n, 2, 'the intent token and the purchase token');
    });

    it('has the brand agent ask the governance agent before a licence on a governed account', async () => {
      const { account, planId } = await governedAccount(10_000);
      await brand.call('sync_governance', {
        idempotency_key: randomUUID(),
        accounts: [
          {
            account,
            governance_agents: [{ url: governanceUrl(), authentication: { schemes: ['Bearer'], credentials: token } }],
          },
        ],
      });
      const licence = (pricing_option_id: string, campaign: Json, more: Json) => ({
        idempotency_key: randomUUID(),
        account,
        rights_id: 'volt_the_fox',
        pricing_option_id,
        buyer: { domain: 'acme.example' },
        campaign: {
          description: 'EV launch',
          uses: ['likeness'],
          countries: ['US'],
          end_date: '2027-03-31',
          ...campaign,
        },
        revocation_webhook: { url: 'https://buyer.example/revocations' },
        plan_id: planId,
        ...more,
      });
      const approvedFor = async (budget: number) =>
        (
          await governance.call('check_governance', {
            plan_id: planId,
            caller: 'https://buyer.example/orchestrator',
            tool: 'acquire_rights',
            payload: { budget, seller_agent_url: `${front.url}/brand/mcp` },
          })
        ).governance_context as string;
      assert.equal((await brand.fail('acquire_rights', licence('volt_cpm', {}, {}))).code, 'PERMISSION_DENIED');
      // A CPM licence under a plan must say how many impressions, to project its cost.
      const unprojected = await brand.fail(
        'acquire_rights',
        licence('volt_cpm', {}, { governance_context: await approvedFor(100) }),
      );
      assert.deepEqual([unprojected.code, unprojected.field], ['INVALID_REQUEST', 'campaign.estimated_impressions']);
      // $9,000 a quarter is within the plan's $10,000; the governance agent approves the execution.
      const granted = await brand.call(
        'acquire_rights',
        licence('volt_voice_quarter', {}, { governance_context: await approvedFor(9_000) }),
      );
      assert.equal(granted.status, 'acquired', JSON.stringify(granted));
      // 2,000,000 impressions at $1.50 CPM ($3,000) would pass what the plan has left ($1,000).
      const over = await brand.fail(
        'acquire_rights',
        licence('volt_cpm', { estimated_impressions: 2_000_000 }, { governance_context: await approvedFor(500) }),
      );
      assert.equal(over.code, 'GOVERNANCE_DENIED');
      const [kept] = await server.db.query<{ n: number }>(
        `select count(*)::int as n from brand_rights_grants where grant_id = $1`,
        [granted.rights_id],
      );
      assert.equal(kept!.n, 1);
    });

    it('halts with GOVERNANCE_UNAVAILABLE and writes nothing when the governance agent cannot be reached', async () => {
      const { account, domain, planId } = await governedAccount();
      const governance_context = await intent(planId, 5000);
      await front.close();
      const down = await sales.fail('create_media_buy', buy(account, domain, { plan_id: planId, governance_context }));
      assert.equal(down.code, 'GOVERNANCE_UNAVAILABLE');
      assert.deepEqual(await buysOf(account), []);
      const [row] = await server.db.query<{ n: number }>(
        `select count(*)::int as n from seller_governed_actions where account_id = $1`,
        [account.account_id],
      );
      assert.equal(row!.n, 0);
    });
  });
}

/** Runs one of the tenants' passes once, from now, and waits for it to finish. */
async function runPass(server: TestServer, name: string): Promise<void> {
  const pass = server.app.agentPasses!.get(name)!;
  const done = pass.nextPass();
  pass.wake();
  await done;
}
