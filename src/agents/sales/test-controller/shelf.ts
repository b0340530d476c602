import type { Format } from '../../formats/index.ts';
import type { Product } from '../catalog/index.ts';
import { type Offering, type Shelf } from '../offering.ts';
import { ProductSearch } from '../product-search.ts';
import { isHidden, seededFormat, seededPricingOption, seededProduct } from './catalog-fixtures.ts';
import { Refusal } from './scope.ts';
import * as sql from './sql.ts';

/** How many sandbox accounts' merged offerings are kept built (each rebuilt when it gains a seed). */
const keptAccounts = 256;

/**
 * The shelf of a deployment with the test controller: the catalog for everyone, and for a sandbox
 * account the catalog with what it seeded (seed_creative_format, seed_product, seed_pricing_option)
 * merged in, read from the database on each of its calls (one indexed query; none for other
 * accounts or calls without one). Seeds are only ever added, so an account's merged offering is
 * rebuilt only when its seed count or the catalog's offering changes. `agentUrl` is this sales
 * agent's own URL, which defines the formats seeded here.
 */
export function seededShelf(catalog: () => Offering, agentUrl: () => string): Shelf {
  const built = new Map<string, { from: Offering; seeds: number; offering: Offering }>();
  return async (db, account) => {
    const base = catalog();
    if (!account || account.sandbox !== true) return base;
    const seeds = await sql.catalogSeeds(db, account.account_id);
    if (seeds.length === 0) return base;
    const kept = built.get(account.account_id);
    if (kept && kept.from === base && kept.seeds === seeds.length) return kept.offering;
    const offering = merged(base, seeds, agentUrl());
    if (built.size >= keptAccounts) built.clear();
    built.set(account.account_id, { from: base, seeds: seeds.length, offering });
    return offering;
  };
}

/**
 * The catalog with the account's seeds: formats first, then products, then pricing options on
 * them (seeds of one kind in the order they were made). A seed its fixture no longer builds (the
 * catalog changed under it) is left out rather than failing the account's every call.
 */
function merged(base: Offering, seeds: readonly sql.CatalogSeed[], agentUrl: string): Offering {
  const seededFormats: Format[] = [];
  for (const seed of seeds.filter((s) => s.kind === 'creative_format')) {
    tolerate(() => seededFormats.push(seededFormat(seed.entity_id, seed.fixture, base, agentUrl)));
  }
  const formats = [...base.formats, ...seededFormats];
  const products: Product[] = [...base.products];
  const hidden = new Set<string>();
  for (const seed of seeds.filter((s) => s.kind === 'product')) {
    tolerate(() => products.push(seededProduct(seed.entity_id, seed.fixture, base, formats)));
    if (isHidden(seed.fixture)) hidden.add(seed.entity_id);
  }
  for (const seed of seeds.filter((s) => s.kind === 'pricing_option')) {
    const at = products.findIndex((p) => p.product_id === seed.parent_id);
    if (at >= 0) tolerate(() => (products[at] = seededPricingOption(seed.entity_id, seed.fixture, products[at]!)));
  }
  const listed = products.filter((p) => !hidden.has(p.product_id));
  return {
    products,
    listed,
    search: new ProductSearch(listed),
    standardFormatIds: base.standardFormatIds,
    formats,
    seededFormats,
  };
}

function tolerate(build: () => unknown): void {
  try {
    build();
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
  }
}
