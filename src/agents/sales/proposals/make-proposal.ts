import { randomBytes } from 'node:crypto';
import type { PricingOption, Product } from '../catalog/index.ts';

/** A product a brief matched, with its search score and the brief's words it matched on. */
export interface Match {
  product: Product;
  score: number;
  terms: readonly string[];
}

/** core/product-allocation.json as this seller answers it. */
export interface Allocation {
  product_id: string;
  allocation_percentage: number;
  pricing_option_id: string;
  rationale: string;
  sequence: number;
}

/** core/proposal.json as this seller answers it. */
export interface Proposal {
  proposal_id: string;
  name: string;
  description: string;
  allocations: Allocation[];
  expires_at: string;
  total_budget_guidance: { min?: number; currency: string };
  brief_alignment: string;
}

/** What buying a proposal needs beyond its answer: the bid each auction-priced allocation is bought at. */
export interface ProposalTerms {
  bids: Record<string, number>;
}

export interface MadeProposal {
  proposal: Proposal;
  terms: ProposalTerms;
  currency: string;
}

/** How long a proposal can be bought: its allocations are percentages, so only prices can go stale. */
export const proposalValidityMs = 7 * 24 * 3600 * 1000;
/** A plan spreads a budget over a few products, not the whole catalog. */
export const maxAllocations = 3;

/**
 * A media plan over the best matches of a brief (sales-proposal-mode): up to `maxAllocations`
 * products priced in one currency (the best match's), each share of the budget weighted by how
 * well the product matches, whole percentages summing to 100. Each allocation names the pricing
 * option it is bought at, a fixed price preferred; an auction option is bought at its median
 * price guidance, else its floor, and one with neither is left out. `min` is the smallest total
 * whose shares meet every option's minimum spend (a flat rate's price counting as its minimum).
 * Undefined when no match can be priced.
 */
export function makeProposal(matches: readonly Match[], brief: string, now: Date): MadeProposal | undefined {
  // The best matches come first and a plan takes a few: a broad brief's thousand matches are not all priced.
  let currency: string | undefined;
  const chosen: Array<Match & { option: PricingOption }> = [];
  for (const m of matches) {
    currency ??= optionOf(m.product)?.currency;
    const option = currency === undefined ? undefined : optionOf(m.product, currency);
    if (option) chosen.push({ ...m, option });
    if (chosen.length === maxAllocations) break;
  }
  if (!currency) return undefined;
  const shares = wholePercentages(chosen.map((m) => m.score));
  const bids: Record<string, number> = {};
  let min = 0;
  const allocations = chosen.map((m, i): Allocation => {
    const { option } = m;
    const bid = bidOf(option);
    if (bid !== undefined) bids[m.product.product_id] = bid;
    const floor =
      option.min_spend_per_package ?? (option.pricing_model === 'flat_rate' ? option.fixed_price : undefined);
    if (floor !== undefined) min = Math.max(min, Math.ceil((floor * 100) / shares[i]!));
    return {
      product_id: m.product.product_id,
      allocation_percentage: shares[i]!,
      pricing_option_id: option.pricing_option_id,
      rationale: `Matches the brief on: ${m.terms.join(', ')}; ${priceText(option, bid)}.`,
      sequence: i + 1,
    };
  });
  const terms = [...new Set(chosen.flatMap((m) => m.terms))];
  const proposal: Proposal = {
    proposal_id: `prop_${randomBytes(12).toString('hex')}`,
    name: `Plan for "${clip(brief.trim().replaceAll(/\s+/g, ' '), 80)}"`,
    description: `${allocations.length} product${allocations.length === 1 ? '' : 's'} matching the brief, the budget shared by how well each matches. Buy it with create_media_buy {proposal_id, total_budget} before expires_at.`,
    allocations,
    expires_at: new Date(now.getTime() + proposalValidityMs).toISOString(),
    total_budget_guidance: { ...(min > 0 ? { min } : {}), currency },
    brief_alignment: `Matches the brief on: ${terms.join(', ')}.`,
  };
  return { proposal, terms: { bids }, currency };
}

/** The option a product is proposed at: in `currency` when given, a fixed price before an auction that can be bid on. */
function optionOf(product: Product, currency?: string): PricingOption | undefined {
  const usable = product.pricing_options.filter(
    (o) =>
      (currency === undefined || o.currency === currency) && (o.fixed_price !== undefined || bidOf(o) !== undefined),
  );
  return usable.find((o) => o.fixed_price !== undefined) ?? usable[0];
}

function bidOf(option: PricingOption): number | undefined {
  if (option.fixed_price !== undefined) return undefined;
  const guidance = option['price_guidance'] as { p50?: unknown } | undefined;
  return typeof guidance?.p50 === 'number' ? guidance.p50 : option.floor_price;
}

function priceText(option: PricingOption, bid: number | undefined): string {
  return bid === undefined
    ? `${option.pricing_model} at ${option.fixed_price} ${option.currency}`
    : `${option.pricing_model} auction, bid ${bid} ${option.currency}`;
}

/** Whole percentages proportional to the weights, summing to exactly 100 (largest remainder), none below 1. */
export function wholePercentages(weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const exact = weights.map((w) => (total > 0 ? (w * 100) / total : 100 / weights.length));
  const shares = exact.map((x) => Math.max(1, Math.floor(x)));
  let left = 100 - shares.reduce((s, x) => s + x, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % shares.length, left--) shares[byRemainder[k]!.i]! += 1;
  // A floor of 1 may overshoot: take the excess from the largest shares.
  while (left < 0) {
    const largest = shares.indexOf(Math.max(...shares));
    shares[largest]! -= 1;
    left++;
  }
  return shares;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
