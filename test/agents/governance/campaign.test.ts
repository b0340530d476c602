import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JWK } from 'jose';
import { verifyGovernanceToken } from '../../../src/agents/governance/index.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { idempotent, organizationCaller, plan, startGovernance, type Caller } from './harness.ts';

const seller = 'https://seller.example/mcp';
const otherSeller = 'https://other-seller.example/mcp';

eachEngine('governance agent: campaign plans, checks and the audit log', (engine) => {
  const clock = new ManualClock();
  clock.set(Date.parse('2026-12-01T00:00:00Z'));
  let server: TestServer;
  let buyer: Caller;
  let sellerCaller: Caller;
  const issuer = () => `${server.url}/governance/mcp`;
  const jwks = async () =>
    ((await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] }).keys;
  const sync = async (plans: Json[]) => (await buyer.call('sync_plans', idempotent({ plans }))).plans as Json[];
  const intent = (planId: string, payload: Json) =>
    buyer.call('check_governance', {
      plan_id: planId,
      caller: 'https://buyer.example',
      tool: 'create_media_buy',
      payload,
    });
  const purchase = (planId: string, context: string | undefined, planned: Json, by: Caller = sellerCaller) =>
    by.call('check_governance', {
      plan_id: planId,
      caller: seller,
      phase: 'purchase',
      ...(context ? { governance_context: context } : {}),
      planned_delivery: {
        total_budget: 20_000,
        currency: 'USD',
        geo: { countries: ['US'] },
        channels: ['olv'],
        ...planned,
      },
    });

  before(async () => {
    server = await startGovernance(engine, clock);
    buyer = await organizationCaller(server);
    sellerCaller = await organizationCaller(server);
  });
  after(async () => {
    await buyer?.client.close();
    await sellerCaller?.client.close();
    await server?.close();
  });

  describe('sync_plans', () => {
    it('stores plans by id, moving the version only when the plan changes, and answers an impossible plan error', async () => {
      const p = plan({ policy_ids: ['us_coppa'] });
      const [first] = await sync([p]);
      assert.equal(first!.status, 'active');
      assert.equal(first!.version, 1);
      assert.deepEqual(first!.resolved_policies, [{ policy_id: 'us_coppa', source: 'explicit', enforcement: 'must' }]);
      assert.equal((await sync([p]))[0]!.version, 1, 'the same plan again is the same version');
      assert.equal((await sync([{ ...p, objectives: 'Sell more umbrellas.' }]))[0]!.version, 2);
      const answer = await buyer.call(
        'sync_plans',
        idempotent({ plans: [plan({ flight: { start: '2027-02-01T00:00:00Z', end: '2027-01-01T00:00:00Z' } })] }),
      );
      assert.equal((answer.plans as Json[])[0]!.status, 'error');
      assert.match((answer.errors as Json[])[0]!.message as string, /flight\.end must come after flight\.start/);
    });
  });

  describe('intent checks', () => {
    it('approves an action within the plan with a signed token a seller verifies offline against the JWKS', async () => {
      const p = plan();
      await sync([p]);
      const answer = await intent(p.plan_id as string, {
        packages: [{ budget: 30_000 }, { budget: 20_000 }],
        start_time: '2027-01-05T00:00:00Z',
        end_time: '2027-02-05T00:00:00Z',
        channels: ['olv'],
        geo: { countries: ['US'] },
        seller_agent_url: seller,
      });
      assert.equal(answer.status, 'approved', JSON.stringify(answer));
      assert.equal(answer.mode, 'enforce');
      assert.equal(Date.parse(answer.expires_at as string) - clock.now().getTime(), 15 * 60 * 1000);
      const claims = await verifyGovernanceToken(answer.governance_context as string, {
        keys: await jwks(),
        issuer: issuer(),
        planId: p.plan_id as string,
        phases: ['intent'],
        audience: seller,
        now: clock.now(),
      });
      assert.equal(claims.sub, p.plan_id);
      assert.equal(claims.check_id, answer.check_id);
      assert.match(claims.plan_hash, /^[A-Za-z0-9_-]{43}$/);
      await assert.rejects(
        verifyGovernanceToken(answer.governance_context as string, {
          keys: await jwks(),
          issuer: issuer(),
          audience: otherSeller,
        }),
        /addressed to another seller/,
      );
      await assert.rejects(
        verifyGovernanceToken(answer.governance_context as string, {
          keys: await jwks(),
          issuer: issuer(),
          now: new Date(clock.now().getTime() + 20 * 60 * 1000),
        }),
        /expired/,
      );
    });

    it('denies with the findings that decided it, and answers conditions with the value a seller share allows', async () => {
      const p = plan({
        budget: { total: 100_000, currency: 'USD', reallocation_threshold: 10_000, per_seller_max_pct: 40 },
      });
      await sync([p]);
      const over = await intent(p.plan_id as string, { budget: 150_000, currency: 'USD' });
      assert.equal(over.status, 'denied');
      assert.equal(over.governance_context, undefined);
      assert.deepEqual(
        (over.findings as Json[]).map((f) => [f.category_id, f.severity]),
        [['budget_authority', 'critical']],
      );
      const abroad = await intent(p.plan_id as string, { budget: 1_000, geo: { countries: ['US', 'FR'] } });
      assert.equal(abroad.status, 'denied');
      assert.match((abroad.findings as Json[])[0]!.explanation as string, /not FR/);
      const share = await intent(p.plan_id as string, { budget: 50_000, seller_agent_url: seller });
      assert.equal(share.status, 'conditions');
      assert.deepEqual(share.conditions, [
        {
          field: 'payload.budget',
          required_value: 40_000,
          reason: share.conditions && (share.conditions as Json[])[0]!.reason,
        },
      ]);
    });

    it('answers PLAN_NOT_FOUND alike for a plan that does not exist and one of another buyer', async () => {
      const p = plan();
      await sync([p]);
      const stranger = await sellerCaller.fail('check_governance', {
        plan_id: p.plan_id,
        caller: 'https://stranger.example',
        tool: 'create_media_buy',
        payload: { budget: 1 },
      });
      const missing = await buyer.fail('check_governance', {
        plan_id: 'plan_nobody_made',
        caller: 'https://buyer.example',
        tool: 'create_media_buy',
        payload: { budget: 1 },
      });
      assert.equal(stranger.code, 'PLAN_NOT_FOUND');
      assert.equal(missing.code, 'PLAN_NOT_FOUND');
    });
  });

  describe('execution checks', () => {
    it('reserves an approved purchase against the plan, denies delivery past it, and logs every step', async () => {
      const p = plan();
      await sync([p]);
      const planId = p.plan_id as string;
      const buyerIntent = await intent(planId, { budget: 60_000, seller_agent_url: seller });
      const bought = await purchase(planId, buyerIntent.governance_context as string, { total_budget: 60_000 });
      assert.equal(bought.status, 'approved', JSON.stringify(bought));
      assert.ok(bought.next_check, 'a purchase approval asks for delivery reports');
      const claims = await verifyGovernanceToken(bought.governance_context as string, {
        keys: await jwks(),
        issuer: issuer(),
        phases: ['purchase'],
        audience: seller,
        now: clock.now(),
      });
      assert.equal(Date.parse(bought.expires_at as string) - clock.now().getTime(), 24 * 3600 * 1000);

      // What is left is 40,000: a second buy of 50,000 from another intent is denied, nothing reserved.
      const second = await intent(planId, { budget: 50_000 });
      assert.equal(second.status, 'denied');
      const small = await intent(planId, { budget: 30_000 });
      const smallBuy = await purchase(planId, small.governance_context as string, { total_budget: 50_000 });
      assert.equal(smallBuy.status, 'denied');

      // Delivery within the commitment, then past it: denied and the action suspended.
      const deliver = (cumulative_spend: number, week: number) =>
        sellerCaller.call('check_governance', {
          plan_id: planId,
          caller: seller,
          phase: 'delivery',
          governance_context: bought.governance_context,
          planned_delivery: { total_budget: 60_000, currency: 'USD' },
          delivery_metrics: {
            reporting_period: { start: `2027-01-0${week}T00:00:00Z`, end: `2027-01-0${week + 1}T00:00:00Z` },
            cumulative_spend,
          },
        });
      const onTrack = await deliver(20_000, 1);
      assert.equal(onTrack.status, 'approved', JSON.stringify(onTrack));
      const drifted = await deliver(65_000, 2);
      assert.equal(drifted.status, 'denied');
      assert.ok((drifted.findings as Json[]).some((f) => f.category_id === 'delivery_drift'));

      const audit = await buyer.call('get_plan_audit_logs', { plan_ids: [planId], include_entries: true });
      const [log] = audit.plans as Json[];
      assert.deepEqual(log!.budget, { authorized: 100_000, committed: 60_000, remaining: 40_000, utilization_pct: 60 });
      const entries = log!.entries as Json[];
      assert.deepEqual(
        entries.map((e) => [e.check_type, e.status]),
        [
          ['intent', 'approved'],
          ['execution', 'approved'],
          ['intent', 'denied'],
          ['intent', 'approved'],
          ['execution', 'denied'],
          ['execution', 'approved'],
          ['execution', 'denied'],
        ],
      );
      assert.equal(entries[1]!.governance_context, bought.governance_context);
      assert.equal(entries[1]!.plan_hash, claims.plan_hash);
      assert.deepEqual((log!.summary as Json).statuses, { approved: 4, denied: 3, conditions: 0, human_reviewed: 0 });
      const suspended = (log!.governed_actions as Json[]).find((a) => a.committed === 60_000)!;
      assert.equal(suspended.status, 'suspended');
      assert.equal(suspended.check_count, 3, 'the seller’s purchase and two delivery checks');
    });

    it('refuses a token that is not this agent’s, or is for another plan, with PERMISSION_DENIED', async () => {
      const p = plan();
      const q = plan();
      await sync([p, q]);
      const token = (await intent(p.plan_id as string, { budget: 1_000 })).governance_context as string;
      const [header, payload] = token.split('.');
      const forged = `${header}.${payload}.${'A'.repeat(86)}`;
      assert.equal(
        (
          await sellerCaller.fail('check_governance', {
            plan_id: p.plan_id,
            caller: seller,
            governance_context: forged,
            planned_delivery: { total_budget: 1 },
          })
        ).code,
        'PERMISSION_DENIED',
      );
      const crossed = await sellerCaller.fail('check_governance', {
        plan_id: q.plan_id,
        caller: seller,
        governance_context: token,
        planned_delivery: { total_budget: 1 },
      });
      assert.equal(crossed.code, 'PERMISSION_DENIED');
      assert.match(crossed.message as string, /another plan/);
      // A buyer's approval for one seller does not let another seller check against it.
      const forSeller = (await intent(p.plan_id as string, { budget: 1_000, seller_agent_url: seller }))
        .governance_context as string;
      const elsewhere = await sellerCaller.fail('check_governance', {
        plan_id: p.plan_id,
        caller: otherSeller,
        governance_context: forSeller,
        planned_delivery: { total_budget: 1_000 },
      });
      assert.match(elsewhere.message as string, /addressed to another seller/);
    });

    it('approves exactly as many of 50 concurrent purchases as the budget allows', async () => {
      const p = plan();
      await sync([p]);
      const checks = await Promise.all(
        Array.from({ length: 50 }, () =>
          buyer.call('check_governance', {
            plan_id: p.plan_id,
            caller: seller,
            phase: 'purchase',
            planned_delivery: { total_budget: 10_000, currency: 'USD' },
          }),
        ),
      );
      assert.equal(checks.filter((c) => c.status === 'approved').length, 10);
      assert.equal(checks.filter((c) => c.status === 'denied').length, 40);
      const [log] = (await buyer.call('get_plan_audit_logs', { plan_ids: [p.plan_id] })).plans as Json[];
      assert.equal((log!.budget as Json).committed, 100_000);
    });
  });

  describe('report_plan_outcome', () => {
    it('sets what a completed action committed, releases a failed one, and answers findings past the budget', async () => {
      const p = plan();
      await sync([p]);
      const planId = p.plan_id as string;
      const first = await purchase(planId, undefined, { total_budget: 50_000 }, buyer);
      const done = await buyer.call(
        'report_plan_outcome',
        idempotent({
          plan_id: planId,
          governance_context: first.governance_context,
          outcome: 'completed',
          seller_response: { committed_budget: 45_000, seller_reference: 'mb_1' },
        }),
      );
      assert.deepEqual(
        { status: done.status, committed: done.committed_budget, summary: done.plan_summary },
        { status: 'accepted', committed: 45_000, summary: { total_committed: 45_000, budget_remaining: 55_000 } },
      );
      const second = await purchase(planId, undefined, { total_budget: 50_000 }, buyer);
      const failed = await buyer.call(
        'report_plan_outcome',
        idempotent({ plan_id: planId, governance_context: second.governance_context, outcome: 'failed' }),
      );
      assert.deepEqual(failed.plan_summary, { total_committed: 45_000, budget_remaining: 55_000 });
      const third = await purchase(planId, undefined, { total_budget: 55_000 }, buyer);
      const over = await buyer.call(
        'report_plan_outcome',
        idempotent({
          plan_id: planId,
          governance_context: third.governance_context,
          outcome: 'completed',
          seller_response: { committed_budget: 70_000 },
        }),
      );
      assert.equal(over.status, 'findings');
      assert.equal((over.findings as Json[])[0]!.category_id, 'budget_authority');
    });
  });
});
