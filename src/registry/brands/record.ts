import type { Clock } from '../../clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { NotifiedCache } from '../../db/notified-cache.ts';
import type { BrandRecord } from '../../protocol/brand-identity.ts';
import { domainOrUndefined } from '../../protocol/domain.ts';
import { brandByIdOrKey, brandsForDomains, brandWithHouse } from './sql.ts';

/**
 * The registry's record of a brand named by its domain (or a domain its house declares for it),
 * its registry id, or the id its house's brand.json gives it; undefined when the registry does not
 * know it. A brand without a house of record is its own (master) house.
 */
export async function brandRecord(db: Queryable, brandId: string): Promise<BrandRecord | undefined> {
  const domain = asDomain(brandId);
  // By domain (the usual name) the brand and its house's name come in one statement.
  const byDomain = domain ? await brandWithHouse(db, domain) : undefined;
  const row = byDomain ?? (await brandByIdOrKey(db, brandId));
  if (!row) return undefined;
  const houseDomain = row.house_domain ?? row.domain;
  const houseName =
    byDomain?.house_name ??
    (houseDomain === row.domain
      ? row.brand_name
      : (await brandsForDomains(db, [houseDomain])).get(houseDomain)?.brand_name);
  return {
    id: row.id,
    domain: row.domain,
    name: row.brand_name,
    brandKey: row.brand_key,
    kellerType: row.keller_type ?? 'master',
    house: { domain: houseDomain, name: houseName ?? houseDomain },
    manifest: row.manifest,
  };
}

// A brand.json id ("nike") has no dot; a domain does.
const asDomain = (value: string) => (value.includes('.') ? domainOrUndefined(value) : undefined);

/**
 * The registry's brand records kept in memory for the brand agent's get_brand_identity, each as
 * `brandRecord` reads it (an unknown brand too). Any committed change to brands or their aliases
 * empties it on every instance (migration 0051), before a later request is answered.
 */
export class BrandRecordCache {
  private readonly cache: NotifiedCache;
  private readonly db: Queryable;

  constructor(db: Database, clock: Clock) {
    this.db = db;
    this.cache = new NotifiedCache(db, clock, { channel: 'ap_brands', ttlMs: 300_000, maxEntries: 10_000 });
  }

  /** Starts listening for brand changes; until then, or without it, every record is read. */
  start = (): Promise<void> => this.cache.start();
  stop = (): Promise<void> => this.cache.stop();

  async record(brandId: string): Promise<BrandRecord | undefined> {
    const found = await this.cache.get(brandId, async () => ({ value: (await brandRecord(this.db, brandId)) ?? null }));
    return found ?? undefined;
  }
}
