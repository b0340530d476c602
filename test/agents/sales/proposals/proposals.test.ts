import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyerPool, day, inDays, startSales, type Buyer } from '../media-buys/harness.ts';

const PRODUCTS_RESPONSE = '/schemas/3.0.6/media-buy/get-products-response.json';

/**
 * sales-proposal-mode as a buyer runs it: a brief answers products and a proposal (core/proposal.json);
 * create_media_buy {proposal_id, total_budget} buys it, its allocations becoming the packages,
 * while it is valid; an expired one is PROPOSAL_EXPIRED, an unknown (or another caller's)
 * REFERENCE_NOT_FOUND.
 */
eachEngine('sales agent: proposals', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  const discover = async (b: Buyer, args: Record<string, unknown>): Promise<Json> => {
    const answer = await b.call('get_products', args);
    assert.deepEqual(validateSchema(PRODUCTS_RESPONSE, answer).errors, [], 'get_products answers its published schema');
    return answer;
  };
  const buyArgs = (b: Buyer, proposalId: string, amount: number, more: Record<string, unknown> = {}) => ({
    idempotency_key: randomUUID(),
    account: b.account,
    brand: { domain: b.domain },
    start_time: inDays(clock, 5),
    end_time: inDays(clock, 35),
    proposal_id: proposalId,
    total_budget: { amount, currency: 'USD' },
    ...more,
  });

  it('answers a proposal over the products a brief matches, and buys it as packages sharing the total budget', async () => {
    const b = await buyers.add();
    const answer = await discover(b, {
      buying_mode: 'brief',
      brief: 'Online video pre-roll around the news',
      brand: { domain: b.domain },
      account: b.account,
    });
    const [proposal] = answer.proposals as Json[];
    assert.ok(proposal, 'a brief that matches answers a proposal');
    const productIds = new Set((answer.products as Json[]).map((p) => p.product_id));
    const allocations = proposal.allocations as Json[];
    assert.ok(allocations.length >= 1 && allocations.length <= 3);
    assert.ok(
      allocations.every((a) => productIds.has(a.product_id)),
      'each allocation is of a product answered',
    );
    assert.equal(
      allocations.reduce((s, a) => s + (a.allocation_percentage as number), 0),
      100,
      'allocations sum to 100',
    );
    assert.equal(new Date(proposal.expires_at).getTime(), clock.now().getTime() + 7 * day);
    const min = (proposal.total_budget_guidance as Json).min as number;
    assert.ok(min > 0, 'the products have minimum spends, so the plan has a minimum');

    const amount = Math.max(min, 20000) + 0.07;
    const buy = await b.call('create_media_buy', buyArgs(b, proposal.proposal_id, amount));
    assert.equal(buy.status, 'pending_creatives');
    const packages = buy.packages as Json[];
    assert.deepEqual(
      packages.map((p) => [p.product_id, p.pricing_option_id]),
      allocations.map((a) => [a.product_id, a.pricing_option_id]),
    );
    assert.equal(
      Math.round(packages.reduce((s, p) => s + (p.budget as number), 0) * 100),
      Math.round(amount * 100),
      'the budgets add up to the total, to the cent',
    );
    for (const [i, p] of packages.slice(0, -1).entries())
      assert.ok(
        Math.abs((p.budget as number) - (amount * (allocations[i]!.allocation_percentage as number)) / 100) < 0.01,
      );
    const [listed] = (await b.get({ media_buy_ids: [buy.media_buy_id] })).media_buys as Json[];
    assert.equal(listed!.media_buy_id, buy.media_buy_id);
  });

  it('refuses a total below the proposal’s minimum, in another currency, or missing', async () => {
    const b = await buyers.add();
    const [proposal] = (await discover(b, { brief: 'news pre-roll video' })).proposals as Json[];
    const min = (proposal!.total_budget_guidance as Json).min as number;
    const low = await b.fail('create_media_buy', buyArgs(b, proposal!.proposal_id, min - 1));
    assert.deepEqual([low.code, low.field], ['BUDGET_TOO_LOW', 'total_budget.amount']);
    const euros = await b.fail(
      'create_media_buy',
      buyArgs(b, proposal!.proposal_id, min, { total_budget: { amount: min, currency: 'EUR' } }),
    );
    assert.deepEqual([euros.code, euros.field], ['VALIDATION_ERROR', 'total_budget.currency']);
    const { total_budget: _, ...without } = buyArgs(b, proposal!.proposal_id, min);
    const none = await b.fail('create_media_buy', without);
    assert.equal(none.code, 'INVALID_REQUEST', 'the published schema makes total_budget a dependency of proposal_id');
    assert.match(none.message as string, /total_budget/);
  });

  it('answers PROPOSAL_EXPIRED after expires_at, and REFERENCE_NOT_FOUND for an unknown or another caller’s proposal', async () => {
    const b = await buyers.add();
    const other = await buyers.add({ org: true });
    const [proposal] = (await discover(b, { brief: 'recipes display' })).proposals as Json[];
    const amount = Math.max(((proposal!.total_budget_guidance as Json).min as number | undefined) ?? 0, 10000);

    const stranger = await other.fail('create_media_buy', buyArgs(other, proposal!.proposal_id, amount));
    assert.deepEqual([stranger.code, stranger.field], ['REFERENCE_NOT_FOUND', 'proposal_id']);
    const unknown = await b.fail('create_media_buy', buyArgs(b, 'prop_nope', amount));
    assert.deepEqual([unknown.code, unknown.field], ['REFERENCE_NOT_FOUND', 'proposal_id']);

    clock.advance(7 * day);
    const expired = await b.fail('create_media_buy', buyArgs(b, proposal!.proposal_id, amount));
    assert.deepEqual([expired.code, expired.field], ['PROPOSAL_EXPIRED', 'proposal_id']);
    const refined = await discover(b, {
      buying_mode: 'refine',
      refine: [{ scope: 'proposal', proposal_id: proposal!.proposal_id }],
    });
    assert.deepEqual(
      (refined.refinement_applied as Json[]).map((r) => [r.scope, r.proposal_id, r.status]),
      [['proposal', proposal!.proposal_id, 'unable']],
    );
    assert.match((refined.refinement_applied as Json[])[0]!.notes as string, /expired/);
  });

  it('answers a valid proposal again on refine (finalize: it is already firm), and leaves one out on omit', async () => {
    const b = await buyers.add();
    const [proposal] = (await discover(b, { brief: 'local news display' })).proposals as Json[];
    const refined = await discover(b, {
      buying_mode: 'refine',
      refine: [
        { scope: 'proposal', proposal_id: proposal!.proposal_id, action: 'finalize' },
        { scope: 'proposal', proposal_id: proposal!.proposal_id, ask: 'more mobile' },
      ],
    });
    assert.deepEqual(
      (refined.proposals as Json[]).map((p) => p.proposal_id),
      [proposal!.proposal_id],
    );
    assert.deepEqual(
      (refined.refinement_applied as Json[]).map((r) => r.status),
      ['applied', 'partial'],
    );
    const omitted = await discover(b, {
      buying_mode: 'refine',
      refine: [{ scope: 'proposal', proposal_id: proposal!.proposal_id, action: 'omit' }],
    });
    assert.equal(omitted.proposals, undefined);
  });

  it('makes no proposal in wholesale mode, nor for a brief that matches nothing', async () => {
    const b = await buyers.add();
    assert.equal((await discover(b, { buying_mode: 'wholesale' })).proposals, undefined);
    const nothing = await discover(b, { brief: 'xyzzy plugh' });
    assert.deepEqual([nothing.products, nothing.proposals], [[], undefined]);
    assert.match(nothing.message as string, /No product matches the brief/);
  });
});
