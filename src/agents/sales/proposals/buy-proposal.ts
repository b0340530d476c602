import { AgentError } from '../../../protocol/errors.ts';
import type { Queryable } from '../../../db/database.ts';
import type { PackageRequest } from '../media-buys/package-terms.ts';
import * as sql from './sql.ts';

interface TotalBudget {
  amount: number;
  currency: string;
}

/**
 * What create_media_buy's `proposal_id` (media-buy/create-media-buy-request.json) buys: the
 * caller's proposal, while it is valid (after expires_at: PROPOSAL_EXPIRED; unknown, or another
 * caller's: REFERENCE_NOT_FOUND, the catalogue's code when no specific one applies). Without
 * packages, its allocations become the packages: each allocation's percentage of `total_budget`
 * (in the proposal's currency, at least its guidance's min), rounded to cents, the last taking
 * what rounding left, at the allocation's pricing option (and bid, for an auction). With
 * packages, the buyer has shaped the buy itself; the proposal must still be valid.
 */
export async function proposalPackages(
  db: Queryable,
  owner: string,
  args: Record<string, unknown>,
  now: Date,
): Promise<PackageRequest[] | undefined> {
  const proposalId = args['proposal_id'] as string;
  const row = await sql.proposalOf(db, owner, proposalId);
  if (!row) {
    throw new AgentError(
      'REFERENCE_NOT_FOUND',
      `You have no proposal ${proposalId} here; get_products with a brief makes one.`,
      {
        field: 'proposal_id',
        suggestion: 'Call get_products with a brief and use a proposal_id it answers.',
      },
    );
  }
  if (now >= row.expires_at) {
    throw new AgentError(
      'PROPOSAL_EXPIRED',
      `Proposal ${proposalId} expired at ${row.expires_at.toISOString()}; get_products gives a fresh one.`,
      {
        field: 'proposal_id',
        details: { expires_at: row.expires_at.toISOString() },
      },
    );
  }
  const given = args['packages'] as PackageRequest[] | undefined;
  if (given) return given;

  const budget = args['total_budget'] as TotalBudget | undefined;
  if (!budget)
    throw new AgentError(
      'INVALID_REQUEST',
      'Buying a proposal without packages needs total_budget {amount, currency}: its allocations are shares of it.',
      { field: 'total_budget' },
    );
  if (budget.currency !== row.currency) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `Proposal ${proposalId} is priced in ${row.currency}; total_budget is in ${budget.currency}.`,
      { field: 'total_budget.currency', details: { currency: row.currency } },
    );
  }
  const min = row.proposal.total_budget_guidance.min;
  if (min !== undefined && budget.amount < min) {
    throw new AgentError(
      'BUDGET_TOO_LOW',
      `Proposal ${proposalId} needs a total_budget of at least ${min} ${row.currency} to meet its products' minimum spends.`,
      {
        field: 'total_budget.amount',
        details: { min, currency: row.currency },
      },
    );
  }
  const allocations = row.proposal.allocations.filter((a) => a.allocation_percentage > 0);
  const cents = Math.round(budget.amount * 100);
  let left = cents;
  return allocations.map((a, i) => {
    const share = i === allocations.length - 1 ? left : Math.floor((cents * a.allocation_percentage) / 100);
    left -= share;
    const bid = row.terms.bids[a.product_id];
    return {
      product_id: a.product_id,
      pricing_option_id: a.pricing_option_id,
      budget: share / 100,
      ...(bid === undefined ? {} : { bid_price: bid }),
    } as PackageRequest;
  });
}
