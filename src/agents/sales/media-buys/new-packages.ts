import { randomBytes } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import type { Product } from '../catalog/index.ts';
import type { PackageRow } from './media-buy.ts';
import {
  checkBid,
  checkFormats,
  checkMeasurementTerms,
  checkMinimumSpend,
  checkPositive,
  checkTargeting,
  packageFlight,
  pricedProduct,
  termsOf,
  type Flight,
  type PackageRequest,
} from './package-terms.ts';

/** Seller-assigned ids: 96 random bits, so one id tells nothing of another. */
export const newId = (prefix: 'mb' | 'pkg') => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface NewPackages {
  requests: readonly PackageRequest[];
  /** `packages` (create) or `new_packages` (update): where errors point. */
  at: string;
  flight: Flight;
  products: readonly Product[];
  /** The buy's currency, once it has one: every package is priced in it. */
  currency: string | undefined;
  mediaBuyId: string;
  firstPosition: number;
}

/**
 * Checks packages to add to a buy and makes their rows: first what needs no catalog (budgets above
 * zero, each flight within the buy's), then each product and pricing option, its minimum spend, bid,
 * formats, targeting and measurement terms. All or nothing: the first problem is the answer. Their
 * creatives are the creative library's to check and assign (creativesOfNewPackages).
 */
export function newPackages({ requests, at, flight, products, currency, mediaBuyId, firstPosition }: NewPackages): {
  rows: PackageRow[];
  currency: string;
} {
  const flights = requests.map((pkg, i) => {
    checkPositive(pkg.budget, `${at}[${i}].budget`);
    return packageFlight(pkg, flight, `${at}[${i}]`);
  });
  let buyCurrency = currency;
  const rows = requests.map((pkg, i): PackageRow => {
    const where = `${at}[${i}]`;
    const { product, option } = pricedProduct(pkg, products, where);
    buyCurrency ??= option.currency;
    if (option.currency !== buyCurrency) {
      throw new AgentError(
        'VALIDATION_ERROR',
        `${where} is priced in ${option.currency}, the media buy in ${buyCurrency}; one buy is in one currency.`,
        {
          field: `${where}.pricing_option_id`,
        },
      );
    }
    checkMinimumSpend(pkg.budget, option, `${where}.budget`);
    checkBid(pkg.bid_price, option, where);
    checkFormats(pkg.format_ids, product, where);
    checkTargeting(pkg.targeting_overlay, product, where);
    checkMeasurementTerms(pkg.measurement_terms, product, where);
    return {
      package_id: newId('pkg'),
      media_buy_id: mediaBuyId,
      position: firstPosition + i,
      product_id: product.product_id,
      pricing_option_id: option.pricing_option_id,
      budget: pkg.budget,
      bid_price: pkg.bid_price ?? null,
      start_time: flights[i]!.start,
      end_time: flights[i]!.end,
      paused: pkg.paused === true,
      cancellation: null,
      details: termsOf(pkg),
    };
  });
  return { rows, currency: buyCurrency! };
}
