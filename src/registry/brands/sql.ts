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

const COLUMNS =
  'e.id, e.domain, e.brand_name, e.brand_key, e.keller_type, e.house_domain, e.source, e.manifest, e.revision, e.created_at, e.updated_at';

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
  const rows = await db.query<{ domain: string }>(
    `select domain from brand_aliases where brand_id = $1 order by domain`,
    [brandId],
  );
  return rows.map((r) => r.domain);
}

/** Brands in id order after `after`, each with its aliases, for the feed snapshot. */
export async function pageById(
  db: Queryable,
  after: string | undefined,
  limit: number,
): Promise<Array<BrandRow & { aliases: string[] }>> {
  return db.query<BrandRow & { aliases: string[] }>(
    `select ${COLUMNS}, array(select a.domain from brand_aliases a where a.brand_id = e.id order by a.domain) as aliases
       from brands e where ($1::uuid is null or e.id > $1) order by e.id limit $2`,
    [after ?? null, limit],
  );
}

export type AuthoritativeBrand = Pick<
  BrandRow,
  'id' | 'domain' | 'brand_name' | 'brand_key' | 'keller_type' | 'house_domain' | 'manifest'
> & { aliases: string[] };

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
    [
      brand.id,
      brand.domain,
      brand.brand_name,
      brand.brand_key,
      brand.keller_type,
      brand.house_domain,
      JSON.stringify(brand.manifest),
    ],
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

/** A brand a name search found, and how well it matched: 0 exact, 1 prefix, 2 every word, 3 a brand of a house that matched. */
export type FoundBrand = BrandRow & { rank: number };

export interface BrandSearch {
  /** The search, trimmed and lowercased. */
  text: string;
  /** `text` as a domain, when it is one (an exact domain or alias match). */
  domain: string | null;
  /** A tsquery of the search's words, each a word prefix (`'lum':* & 'bev':*`); null when it has none. */
  words: string | null;
  limit: number;
}

/**
 * How many brands each kind of match (words, name prefix, domain prefix) hands to the ranking at
 * most: the work of a search is bounded by this, not by the registry's size. Exact matches are
 * always ranked.
 */
export const findCandidates = 500;

const RANKED = `order by rank, (source = 'brand_json') desc, length(brand_name), lower(brand_name), domain`;

/**
 * Brands by name, best first: exact names and domains (and a house's alias domains), then names or
 * domains starting with the search, then names holding each of its words as a word prefix; then
 * the other brands of a house that matched, so a company's name finds its brands. Every kind of
 * match is read through an index (0043), and at most `findCandidates` of each are ranked.
 */
export async function findBrands(db: Queryable, s: BrandSearch): Promise<FoundBrand[]> {
  const prefix = `${s.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.query<FoundBrand>(
    `with candidates as (
       (select e.id from brands e where $1::text is not null and to_tsvector('simple', e.brand_name) @@ to_tsquery('simple', $1) limit $5)
       union (select e.id from brands e where lower(e.brand_name) like $3 escape '\\' limit $5)
       union (select e.id from brands e where e.domain like $3 escape '\\' limit $5)
       union (select e.id from brands e where lower(e.brand_name) = $2 or e.domain = $6)
       union (select a.brand_id from brand_aliases a where a.domain = $6)
     ),
     ranked as (
       select ${COLUMNS},
         case when lower(e.brand_name) = $2 or e.domain = $6 or exists (select 1 from brand_aliases a where a.brand_id = e.id and a.domain = $6) then 0
              when lower(e.brand_name) like $3 escape '\\' or e.domain like $3 escape '\\' then 1
              else 2 end as rank
       from candidates c join brands e on e.id = c.id
     ),
     best as (select * from ranked ${RANKED} limit $4),
     family as (
       select f.*, 3 as rank from best h
       cross join lateral (select ${COLUMNS} from brands e where e.house_domain = h.domain and e.id <> h.id order by e.domain limit $4) f
       where h.house_domain is null or h.house_domain = h.domain
     )
     select * from (select * from best union all select * from family f where not exists (select 1 from best b where b.id = f.id)) r
     ${RANKED} limit $4`,
    [s.words, s.text, prefix, s.limit, findCandidates, s.domain],
  );
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The brand of a registry id, or the one brand whose house's brand.json gives it this id (none when several do). */
export async function brandByIdOrKey(db: Queryable, key: string): Promise<BrandRow | undefined> {
  const rows = uuidShape.test(key)
    ? await db.query<BrandRow>(`select ${COLUMNS} from brands e where e.id = $1`, [key.toLowerCase()])
    : await db.query<BrandRow>(`select ${COLUMNS} from brands e where e.brand_key = $1 limit 2`, [key]);
  return rows.length === 1 ? rows[0] : undefined;
}

/** The brand a domain resolves to (as brandsForDomains), with its house's name, in one statement. */
export async function brandWithHouse(
  db: Queryable,
  domain: string,
): Promise<(BrandRow & { house_name: string | null }) | undefined> {
  const [row] = await db.query<BrandRow & { house_name: string | null }>(
    `with own as (
       select e.id from brands e where e.domain = $1
       union all
       select a.brand_id from brand_aliases a
        where a.domain = $1 and not exists (select 1 from brands own where own.domain = a.domain)
       limit 1)
     select ${COLUMNS}, h.brand_name as house_name
       from own join brands e on e.id = own.id
       left join brands h on h.domain = coalesce(e.house_domain, e.domain)`,
    [domain],
  );
  return row;
}
