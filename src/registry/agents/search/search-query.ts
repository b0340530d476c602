import { ApError } from '../../../protocol/errors.ts';

/** The profile dimensions a search filters on (spec section 4, agent search parameters). */
export const dimensions = ['channels', 'property_types', 'markets', 'categories', 'tags', 'delivery_types'] as const;
export type Dimension = (typeof dimensions)[number];

export interface SearchQuery {
  filters: ReadonlyMap<Dimension, ReadonlySet<string>>;
  hasTmp: boolean | undefined;
  minProperties: number | undefined;
  /** Only agents of this type (an agent only the graph knows sells: it is a sales agent). */
  type: string | undefined;
}

const maxValues = 100;

/**
 * The filters of a search from its query string: each dimension a CSV of values (OR'd; at most
 * 100; markets compared upper-case, as country codes are written), `has_tmp`, `min_properties`,
 * and the agent's `type`.
 */
export function searchQuery(
  raw: Partial<Record<Dimension, string>> & { has_tmp?: boolean; min_properties?: number; type?: string },
): SearchQuery {
  const filters = new Map<Dimension, Set<string>>();
  for (const dimension of dimensions) {
    const csv = raw[dimension];
    if (csv === undefined) continue;
    const values = csv
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    if (values.length > maxValues) {
      throw new ApError('invalid_request', `${dimension} takes at most ${maxValues} values; it has ${values.length}.`, {
        details: [{ in: 'querystring', field: dimension, message: `at most ${maxValues} comma-separated values` }],
      });
    }
    if (values.length > 0)
      filters.set(dimension, new Set(dimension === 'markets' ? values.map((v) => v.toUpperCase()) : values));
  }
  return { filters, hasTmp: raw.has_tmp, minProperties: raw.min_properties, type: raw.type };
}

/** One key per distinct search, whatever the order of its values. */
export function queryKey(query: SearchQuery): string {
  const parts = [...query.filters].map(([dimension, values]) => `${dimension}=${[...values].sort().join(',')}`);
  return [...parts, `tmp=${query.hasTmp ?? ''}`, `min=${query.minProperties ?? ''}`, `type=${query.type ?? ''}`].join(
    '&',
  );
}
