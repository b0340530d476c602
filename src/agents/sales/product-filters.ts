import { sameFormatId } from '../formats/index.ts';
import { AgentError } from '../../protocol/errors.ts';
import type { PricingOption, Product } from './catalog/index.ts';

/** core/product-filters.json, as far as get_products reads it. */
export interface ProductFilters {
  delivery_type?: string;
  exclusivity?: string;
  is_fixed_price?: boolean;
  format_ids?: Array<{ agent_url: string; id: string }>;
  standard_formats_only?: boolean;
  channels?: string[];
  budget_range?: { min?: number; max?: number; currency?: string };
  start_date?: string;
  end_date?: string;
  [other: string]: unknown;
}

/** The filters this seller evaluates; the others name data its catalog does not carry (geography, TMP, keywords...). */
const evaluated = new Set([
  'delivery_type',
  'exclusivity',
  'is_fixed_price',
  'format_ids',
  'standard_formats_only',
  'channels',
  'budget_range',
  'start_date',
  'end_date',
]);

export interface Filtered {
  products: Product[];
  /** Filters given that this seller cannot evaluate: they narrowed nothing, and the answer says so. */
  ignored: string[];
}

/**
 * The products every given filter admits. A filter whose data the catalog lacks narrows nothing
 * rather than everything: a buyer asking for US inventory should hear what there is and that the
 * seller could not tell, not an empty list.
 */
export function applyFilters(
  products: readonly Product[],
  filters: ProductFilters | undefined,
  standardFormatIds: ReadonlySet<string>,
): Filtered {
  if (!filters) return { products: [...products], ignored: [] };
  if (filters.start_date && filters.end_date && filters.end_date < filters.start_date) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `filters.end_date ${filters.end_date} is before filters.start_date ${filters.start_date}.`,
      { field: 'filters.end_date' },
    );
  }
  const { min, max } = filters.budget_range ?? {};
  if (min !== undefined && max !== undefined && max < min) {
    throw new AgentError('VALIDATION_ERROR', `filters.budget_range.max ${max} is below its min ${min}.`, {
      field: 'filters.budget_range.max',
    });
  }
  const admitted = products.filter(
    (p) =>
      (filters.delivery_type === undefined || p.delivery_type === filters.delivery_type) &&
      (filters.exclusivity === undefined || (p.exclusivity ?? 'none') === filters.exclusivity) &&
      (filters.is_fixed_price === undefined || p.pricing_options.some((o) => isFixed(o) === filters.is_fixed_price)) &&
      (filters.format_ids === undefined ||
        filters.format_ids.some((f) => p.format_ids.some((g) => sameFormatId(g, f)))) &&
      (!filters.standard_formats_only || p.format_ids.every((f) => standardFormatIds.has(f.id))) &&
      (filters.channels === undefined || (p.channels ?? []).some((c) => filters.channels!.includes(c))) &&
      (filters.budget_range === undefined || p.pricing_options.some((o) => withinBudget(o, filters.budget_range!))) &&
      (filters.start_date === undefined ||
        typeof p['expires_at'] !== 'string' ||
        p['expires_at'].slice(0, 10) >= filters.start_date),
  );
  return { products: admitted, ignored: Object.keys(filters).filter((name) => !evaluated.has(name)) };
}

const isFixed = (option: PricingOption) => typeof option.fixed_price === 'number';

/** A pricing option fits a budget when its currency is the budget's and its minimum spend does not exceed the budget's top. */
function withinBudget(option: PricingOption, budget: NonNullable<ProductFilters['budget_range']>): boolean {
  if (budget.currency !== undefined && option.currency !== budget.currency) return false;
  return budget.max === undefined || (option.min_spend_per_package ?? 0) <= budget.max;
}
