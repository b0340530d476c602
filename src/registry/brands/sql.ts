import type { Queryable } from '../../db/database.ts';
import type { EntryRow, EntryTables } from '../entries/index.ts';

/** Every query of the brands capability, and the names the shared entry SQL uses for brands. */

export type BrandSource = 'brand_json' | 'enriched' | 'community';

export interface BrandRow extends EntryRow {
  domain: string;
  brand_name: string;
  brand_key: string | null;
  keller_type: string | null;
  house_domain: string | null;
  source: BrandSource;
  manifest: Record<string, unknown>;
}

const COLUMNS = 'e.id, e.domain, e.brand_name, e.brand_key, e.keller_type, e.house_domain, e.source, e.manifest, e.revision, e.created_at, e.updated_at';

export const brandTables: EntryTables = {
  entity: 'brand',
  entries: 'brands',
  domain: 'domain',
  columns: COLUMNS,
  matches: `($1::text is null or e.domain ilike $1 escape '\\' or e.brand_name ilike $1 escape '\\')`,
  authoritative: 'brand_json',
  sources: ['brand_json', 'enriched', 'community'],
  tallies: {
    // The protocol's registry client reads a count of brands their owners host on the registry; no
    // brand here has that source (the check constraint says which do), so it counts none, truthfully.
    hosted: `e.source = 'hosted'`,
    // A brand with no house of record is its own house, as resolve says.
    houses: `(e.house_domain is null or e.house_domain = e.domain)`,
    sub_brands: `e.keller_type = 'sub_brand'`,
    with_manifest: `e.manifest <> '{}'::jsonb`,
  },
  editable: ['brand_name', 'manifest'],
  restorable: ['brand_name', 'manifest', 'source', 'keller_type', 'house_domain'],
};

/** The brand a domain resolves to: its own entry, else the brand whose house declares the domain. */
export async function brandsForDomains(db: Queryable, domains: string[]): Promise<Map<string, BrandRow>> {
  const rows = await db.query<BrandRow & { matched: string }>(
    `select e.domain as matched, ${COLUMNS} from brands e where e.domain = any($1::text[])
     union all
     select a.domain as matched, ${COLUMNS} from brand_aliases a join brands e on e.id = a.brand_id
      where a.domain = any($1::text[]) and not exists (select 1 from brands own where own.domain = a.domain)`,
    [domains],
  );
  return new Map(rows.map(({ matched, ...row }) => [matched, row]));
}

export async function aliasesOf(db: Queryable, brandId: string): Promise<string[]> {
  const rows = await db.query<{ domain: string }>(`select domain from brand_aliases where brand_id = $1 order by domain`, [brandId]);
  return rows.map((r) => r.domain);
}

export type AuthoritativeBrand = Pick<BrandRow, 'id' | 'domain' | 'brand_name' | 'brand_key' | 'keller_type' | 'house_domain' | 'manifest'> & { aliases: string[] };

/** Writes a brand projected from its house's brand.json; it replaces any community entry. */
export async function upsertAuthoritative(tx: Queryable, brand: AuthoritativeBrand): Promise<BrandRow> {
  const [row] = await tx.query<BrandRow>(
    `insert into brands as e (id, domain, brand_name, brand_key, keller_type, house_domain, source, manifest, revision)
     values ($1, $2, $3, $4, $5, $6, 'brand_json', $7, 1)
     on conflict (domain) do update set
       brand_name = excluded.brand_name, brand_key = excluded.brand_key, keller_type = excluded.keller_type,
       house_domain = excluded.house_domain, source = 'brand_json', manifest = excluded.manifest,
       revision = e.revision + 1, updated_at = now()
     returning ${COLUMNS}`,
    [brand.id, brand.domain, brand.brand_name, brand.brand_key, brand.keller_type, brand.house_domain, JSON.stringify(brand.manifest)],
  );
  await tx.query(`delete from brand_aliases where brand_id = $1`, [row!.id]);
  if (brand.aliases.length > 0) {
    await tx.query(
      `insert into brand_aliases (domain, brand_id) select d, $2 from unnest($1::text[]) d
       on conflict (domain) do update set brand_id = excluded.brand_id`,
      [brand.aliases, row!.id],
    );
  }
  return row!;
}
