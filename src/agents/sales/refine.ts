import type { Product } from './catalog/index.ts';
import type { ProductSearch } from './product-search.ts';
import type { Chosen } from './offering.ts';

/** One change request of get_products' `refine[]`. */
export type RefineEntry =
  | { scope: 'request'; ask: string }
  | { scope: 'product'; product_id: string; action?: 'include' | 'omit' | 'more_like_this'; ask?: string }
  | { scope: 'proposal'; proposal_id: string; action?: string; ask?: string };

/** The seller's answer to one entry, by position (get-products-response.json `refinement_applied`). */
export type RefinementApplied =
  | { scope: 'request'; status: Status; notes?: string }
  | { scope: 'product'; product_id: string; status: Status; notes?: string }
  | { scope: 'proposal'; proposal_id: string; status: Status; notes?: string };

type Status = 'applied' | 'partial' | 'unable';

/**
 * Applies refine[] to the catalog. The agent keeps no earlier answer, so the selection starts from
 * what the request-level asks match (the whole catalog when there are none), adds the products
 * named for inclusion and those like the ones named `more_like_this`, and takes out those named
 * for omission. Proposals live in the caller's registry, which this pure step does not read:
 * get_products answers proposal entries from it (proposals/refine-proposals.ts) in their place.
 */
export function refine(
  search: ProductSearch,
  products: readonly Product[],
  entries: readonly RefineEntry[],
): { chosen: Chosen[]; applied: RefinementApplied[] } {
  const byId = new Map(products.map((p) => [p.product_id, p]));
  const asks = entries.filter((e) => e.scope === 'request');
  const picked = new Map<string, Chosen>();
  const omitted = new Set<string>();
  const pick = (product: Product, relevance?: string) => {
    if (!picked.has(product.product_id))
      picked.set(product.product_id, { product, ...(relevance ? { relevance } : {}) });
  };
  if (asks.length === 0) for (const product of products) pick(product);

  const applied = entries.map((entry): RefinementApplied => {
    switch (entry.scope) {
      case 'request': {
        const ranked = search.rank(entry.ask);
        for (const r of ranked) pick(r.product, `Matches "${entry.ask}" on: ${r.terms.join(', ')}.`);
        return ranked.length > 0
          ? { scope: 'request', status: 'applied' }
          : { scope: 'request', status: 'unable', notes: `No product matches "${entry.ask}".` };
      }
      case 'product': {
        const product = byId.get(entry.product_id);
        if (!product)
          return {
            scope: 'product',
            product_id: entry.product_id,
            status: 'unable',
            notes: `No product ${entry.product_id} in this catalog.`,
          };
        const action = entry.action ?? 'include';
        if (action === 'omit') {
          omitted.add(product.product_id);
          return { scope: 'product', product_id: product.product_id, status: 'applied' };
        }
        pick(product);
        if (action === 'include') return { scope: 'product', product_id: product.product_id, status: 'applied' };
        const similar = search.similar(product.product_id);
        for (const r of similar) pick(r.product, `Like ${product.product_id} on: ${r.terms.join(', ')}.`);
        return similar.length > 0
          ? { scope: 'product', product_id: product.product_id, status: 'applied' }
          : {
              scope: 'product',
              product_id: product.product_id,
              status: 'partial',
              notes: 'No other product is like it; it is included alone.',
            };
      }
      case 'proposal':
        return {
          scope: 'proposal',
          proposal_id: entry.proposal_id,
          status: 'unable',
          notes: 'Proposals are answered from the registry.',
        };
    }
  });
  return { chosen: [...picked.values()].filter((c) => !omitted.has(c.product.product_id)), applied };
}
