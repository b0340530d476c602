import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Product } from '../../../../src/agents/sales/catalog/index.ts';
import { makeProposal, wholePercentages } from '../../../../src/agents/sales/proposals/index.ts';

const product = (id: string, options: Record<string, unknown>[]): Product =>
  ({
    product_id: id,
    name: id,
    description: id,
    publisher_properties: [],
    format_ids: [],
    delivery_type: 'guaranteed',
    pricing_options: options,
    reporting_capabilities: {},
  }) as unknown as Product;

describe('proposals: making one', () => {
  it('shares 100 in whole percentages by weight, none below 1', () => {
    for (const weights of [[1], [1, 1, 1], [5, 3, 2], [100, 0.001, 0.001], [0, 0], [2.5, 2.5, 5]]) {
      const shares = wholePercentages(weights);
      assert.equal(
        shares.reduce((s, x) => s + x, 0),
        100,
        JSON.stringify(weights),
      );
      assert.ok(
        shares.every((x) => Number.isInteger(x) && x >= 1),
        JSON.stringify(shares),
      );
    }
    assert.deepEqual(wholePercentages([5, 3, 2]), [50, 30, 20]);
  });

  it('keeps the best matches priced in one currency, preferring fixed prices, with the minimum the shares need', () => {
    const made = makeProposal(
      [
        {
          product: product('a', [
            {
              pricing_option_id: 'auc',
              pricing_model: 'cpm',
              currency: 'USD',
              floor_price: 2,
              price_guidance: { p50: 3 },
            },
            {
              pricing_option_id: 'fix',
              pricing_model: 'cpm',
              currency: 'USD',
              fixed_price: 10,
              min_spend_per_package: 1000,
            },
          ]),
          score: 3,
          terms: ['news'],
        },
        {
          product: product('b', [{ pricing_option_id: 'eur', pricing_model: 'cpm', currency: 'EUR', fixed_price: 5 }]),
          score: 2,
          terms: ['news'],
        },
        {
          product: product('c', [{ pricing_option_id: 'auc', pricing_model: 'cpm', currency: 'USD', floor_price: 4 }]),
          score: 1,
          terms: ['video'],
        },
        {
          product: product('d', [{ pricing_option_id: 'none', pricing_model: 'cpm', currency: 'USD' }]),
          score: 1,
          terms: ['video'],
        },
      ],
      'news video',
      new Date('2026-01-01T00:00:00Z'),
    )!;
    assert.deepEqual(
      made.proposal.allocations.map((a) => [a.product_id, a.pricing_option_id, a.allocation_percentage]),
      [
        ['a', 'fix', 75],
        ['c', 'auc', 25],
      ],
    );
    assert.deepEqual(made.terms.bids, { c: 4 });
    assert.deepEqual(made.proposal.total_budget_guidance, { min: 1334, currency: 'USD' });
    assert.equal(made.proposal.expires_at, '2026-01-08T00:00:00.000Z');
    assert.equal(
      makeProposal(
        [
          {
            product: product('d', [{ pricing_option_id: 'none', pricing_model: 'cpm', currency: 'USD' }]),
            score: 1,
            terms: [],
          },
        ],
        'x',
        new Date(),
      ),
      undefined,
    );
  });
});
