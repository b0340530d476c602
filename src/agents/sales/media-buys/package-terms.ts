import { sameFormatId } from '../../formats/index.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { PricingOption, Product } from '../catalog/index.ts';

/** media-buy/package-request.json: the fields this seller reads (the rest are echoed as sent). */
export interface PackageRequest {
  product_id: string;
  pricing_option_id: string;
  budget: number;
  bid_price?: number;
  start_time?: string;
  end_time?: string;
  paused?: boolean;
  format_ids?: Array<{ agent_url: string; id: string }>;
  targeting_overlay?: Record<string, unknown>;
  measurement_terms?: MeasurementTerms;
  creative_assignments?: unknown[];
  creatives?: unknown[];
  [more: string]: unknown;
}

/** core/measurement-terms.json. */
export interface MeasurementTerms {
  billing_measurement?: { vendor: { domain: string }; max_variance_percent?: number; measurement_window?: string };
  makegood_policy?: { available_remedies: string[] };
  [more: string]: unknown;
}

export interface Flight {
  start: Date;
  end: Date;
}

/** The terms of a package request this seller echoes as agreed, beyond its columns. */
export const echoedTerms = [
  'format_ids',
  'targeting_overlay',
  'measurement_terms',
  'performance_standards',
  'pacing',
  'impressions',
  'catalogs',
  'optimization_goals',
  'agency_estimate_number',
  'ext',
] as const;

export function instant(text: string, field: string): Date {
  const at = new Date(text);
  if (Number.isNaN(at.getTime()))
    throw new AgentError('INVALID_REQUEST', `${field} is not an ISO 8601 date-time.`, { field });
  return at;
}

/**
 * A buy's flight: `asap` starts now; a scheduled start must not be in the past (a buyer who means
 * now says asap), and the end must come after the start.
 */
export function checkFlight(start: string, end: string, now: Date): Flight {
  return movedFlight({ start, end }, undefined, now);
}

/**
 * A buy's flight after an update that may move either end: a moved start follows the rules of a new
 * one, a moved end must not be in the past, and the end still comes after the start.
 */
export function movedFlight(asked: { start?: string; end?: string }, current: Flight | undefined, now: Date): Flight {
  const start =
    asked.start === undefined ? current!.start : asked.start === 'asap' ? now : instant(asked.start, 'start_time');
  const end = asked.end === undefined ? current!.end : instant(asked.end, 'end_time');
  if (asked.start !== undefined && asked.start !== 'asap' && start < now) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `start_time ${asked.start} is in the past; schedule a future start, or pass "asap".`,
      { field: 'start_time', details: { now: now.toISOString() } },
    );
  }
  if (asked.end !== undefined && end < now) {
    throw new AgentError('VALIDATION_ERROR', `end_time ${asked.end} is in the past.`, {
      field: 'end_time',
      details: { now: now.toISOString() },
    });
  }
  const flight = { start, end };
  checkOrder(flight, 'end_time');
  return flight;
}

function checkOrder(flight: Flight, field: string): void {
  if (flight.end <= flight.start) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `The flight ends (${flight.end.toISOString()}) before it starts (${flight.start.toISOString()}).`,
      {
        field,
        suggestion: 'Give an end_time after the start_time.',
      },
    );
  }
}

/** A package's own flight, which must lie within the buy's; null where it inherits the buy's. */
export function packageFlight(
  pkg: { start_time?: string; end_time?: string },
  buy: Flight,
  at: string,
  current: { start: Date | null; end: Date | null } = { start: null, end: null },
) {
  const start = pkg.start_time === undefined ? current.start : instant(pkg.start_time, `${at}.start_time`);
  const end = pkg.end_time === undefined ? current.end : instant(pkg.end_time, `${at}.end_time`);
  checkWithin({ start, end }, buy, at);
  return { start, end };
}

/** A package's flight stays inside the buy's: checked again when the buy's dates move. */
export function checkWithin(own: { start: Date | null; end: Date | null }, buy: Flight, at: string): void {
  const flight = { start: own.start ?? buy.start, end: own.end ?? buy.end };
  if (flight.start < buy.start || flight.end > buy.end) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `${at}'s flight (${flight.start.toISOString()} to ${flight.end.toISOString()}) must fall within the media buy's (${buy.start.toISOString()} to ${buy.end.toISOString()}).`,
      {
        field: own.start && own.start < buy.start ? `${at}.start_time` : `${at}.end_time`,
      },
    );
  }
  checkOrder(flight, `${at}.end_time`);
}

/** Every budget is money to spend: nothing at all is below any seller's minimum. */
export function checkPositive(budget: number, field: string): void {
  if (!(budget > 0))
    throw new AgentError('BUDGET_TOO_LOW', `${field} is ${budget}; a package needs a budget above zero.`, { field });
}

/** The product and pricing option a package names, from the catalog. */
export function pricedProduct(
  pkg: { product_id: string; pricing_option_id: string },
  products: readonly Product[],
  at: string,
): { product: Product; option: PricingOption } {
  const product = products.find((p) => p.product_id === pkg.product_id);
  if (!product) {
    throw new AgentError('PRODUCT_NOT_FOUND', `There is no product ${pkg.product_id} here.`, {
      field: `${at}.product_id`,
      suggestion: 'Discover products with get_products.',
    });
  }
  const option = product.pricing_options.find((o) => o.pricing_option_id === pkg.pricing_option_id);
  if (!option) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `Product ${product.product_id} has no pricing option ${pkg.pricing_option_id}.`,
      {
        field: `${at}.pricing_option_id`,
        details: { pricing_option_ids: product.pricing_options.map((o) => o.pricing_option_id) },
      },
    );
  }
  return { product, option };
}

export function checkMinimumSpend(budget: number, option: PricingOption, field: string): void {
  if (option.min_spend_per_package !== undefined && budget < option.min_spend_per_package) {
    throw new AgentError(
      'BUDGET_TOO_LOW',
      `${field} is ${budget} ${option.currency}; pricing option ${option.pricing_option_id} needs at least ${option.min_spend_per_package} per package.`,
      {
        field,
        details: { min_spend_per_package: option.min_spend_per_package, currency: option.currency },
      },
    );
  }
}

/**
 * An auction option (no fixed_price) needs a bid at or above its floor; a fixed-price option is
 * bought at its price, so a bid on it would be a price the seller never honours and is refused.
 */
export function checkBid(bid: number | undefined, option: PricingOption, at: string): void {
  const field = `${at}.bid_price`;
  if (option.fixed_price !== undefined) {
    if (bid !== undefined) {
      throw new AgentError(
        'VALIDATION_ERROR',
        `Pricing option ${option.pricing_option_id} is fixed at ${option.fixed_price} ${option.currency}; it takes no bid_price.`,
        { field, details: { fixed_price: option.fixed_price } },
      );
    }
    return;
  }
  if (bid === undefined) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `Pricing option ${option.pricing_option_id} is an auction; give a bid_price${option.floor_price === undefined ? '' : ` of at least ${option.floor_price} ${option.currency}`}.`,
      { field },
    );
  }
  if (option.floor_price !== undefined && bid < option.floor_price) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `bid_price ${bid} is below the floor of ${option.floor_price} ${option.currency} of pricing option ${option.pricing_option_id}.`,
      {
        field,
        details: { floor_price: option.floor_price, currency: option.currency },
      },
    );
  }
}

/** The makegood remedies this seller offers: it adds delivery or credits the next invoice, never adjusts an issued one. */
export const offeredRemedies = ['additional_delivery', 'credit'];
/** The tightest count discrepancy this seller reconciles against (percent). */
export const minimumVariancePercent = 10;

/**
 * This seller's acceptance rule for a buyer's measurement_terms: any billing vendor, with a
 * tolerated variance of at least 10%, in one of the product's measurement windows (when it names
 * one), and makegood remedies among those offered. Anything else is TERMS_REJECTED, naming the term
 * and what would be accepted.
 */
export function checkMeasurementTerms(terms: MeasurementTerms | undefined, product: Product, at: string): void {
  if (!terms) return;
  const field = `${at}.measurement_terms`;
  const billing = terms.billing_measurement;
  if (billing?.max_variance_percent !== undefined && billing.max_variance_percent < minimumVariancePercent) {
    throw new AgentError(
      'TERMS_REJECTED',
      `A billing variance of ${billing.max_variance_percent}% is tighter than this seller reconciles; it accepts ${minimumVariancePercent}% or more.`,
      {
        field: `${field}.billing_measurement.max_variance_percent`,
        details: { minimum_max_variance_percent: minimumVariancePercent },
      },
    );
  }
  if (billing?.measurement_window !== undefined) {
    const windows = (
      (product.reporting_capabilities['measurement_windows'] as Array<{ window_id: string }> | undefined) ?? []
    ).map((w) => w.window_id);
    if (!windows.includes(billing.measurement_window)) {
      throw new AgentError(
        'TERMS_REJECTED',
        `Product ${product.product_id} reports no measurement window ${billing.measurement_window}.`,
        {
          field: `${field}.billing_measurement.measurement_window`,
          details: { measurement_windows: windows },
        },
      );
    }
  }
  const refused = (terms.makegood_policy?.available_remedies ?? []).filter((r) => !offeredRemedies.includes(r));
  if (refused.length > 0) {
    throw new AgentError(
      'TERMS_REJECTED',
      `This seller does not offer the makegood remedies ${refused.join(', ')}; it offers ${offeredRemedies.join(', ')}.`,
      {
        field: `${field}.makegood_policy.available_remedies`,
        details: { available_remedies: offeredRemedies },
      },
    );
  }
}

/** The formats a package uses must be the product's. */
export function checkFormats(formats: PackageRequest['format_ids'], product: Product, at: string): void {
  for (const [i, format] of (formats ?? []).entries()) {
    if (!product.format_ids.some((f) => sameFormatId(f, format))) {
      throw new AgentError(
        'VALIDATION_ERROR',
        `Product ${product.product_id} does not take format ${format.id} of ${format.agent_url}.`,
        {
          field: `${at}.format_ids[${i}]`,
          details: { format_ids: product.format_ids },
        },
      );
    }
  }
}

/** targeting.json: a property list narrows a product's properties only where the product allows it. */
export function checkTargeting(overlay: Record<string, unknown> | undefined, product: Product, at: string): void {
  if (overlay?.['property_list'] !== undefined && product['property_targeting_allowed'] === false) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `Product ${product.product_id} sells its properties whole; it takes no property_list.`,
      { field: `${at}.targeting_overlay.property_list` },
    );
  }
}

/** What package-update.json may replace (product, formats, pricing and agreed terms never change after creation). */
export const updatableTerms = [
  'targeting_overlay',
  'pacing',
  'impressions',
  'catalogs',
  'optimization_goals',
  'ext',
] as const;

/** The terms of a request a package keeps and echoes, beyond its columns: replaced where the request gives them. */
export function termsOf(
  pkg: Record<string, unknown>,
  current: Record<string, unknown> = {},
  keys: readonly string[] = echoedTerms,
): Record<string, unknown> {
  const kept = { ...current };
  for (const key of keys) if (pkg[key] !== undefined) kept[key] = pkg[key];
  return kept;
}
