import type { Queryable } from '../../db/database.ts';
import { likePattern } from '../../db/like.ts';

/** Every query of the brands capability. */

export type BrandSource = 'brand_json' | 'enriched' | 'community';

export interface BrandRow {
  id: string;
  domain: string;
  brand_name: string;
  brand_key: string | null;
  keller_type: string | null;
  house_domain: string | null;
  source: BrandSource;
  manifest: Record<string, unknown>;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'b.id, b.domain, b.brand_name, b.brand_key, b.keller_type, b.house_domain, b.source, b.manifest, b.revision, b.created_at, b.updated_at';

/** The brand a domain resolves to: its own entry, else the brand whose house declares the domain. */
export async function brandsForDomains(db: Queryable, domains: string[]): Promise<Map<string, BrandRow>> {
  const rows = await db.query<BrandRow & { matched: string }>(
    `select b.domain as matched, ${COLUMNS} from brands b where b.domain = any($1::text[])
     union all
     select a.domain as matched, ${COLUMNS} from brand_aliases a join brands b on b.id = a.brand_id
      where a.domain = any($1::text[]) and not exists (select 1 from brands own where own.domain = a.domain)`,
    [domains],
  );
  return new Map(rows.map(({ matched, ...row }) => [matched, row]));
}

export interface CommunityFields {
  id: string;
  domain: string;
  brand_name: string;
  manifest: Record<string, unknown>;
}

/**
 * Creates the entry or takes the next revision number of an existing, non-authoritative one, in
 * one statement: concurrent saves of a domain queue on its row and each gets its own number.
 * Returns nothing when the entry is authoritative.
 */
export async function upsertEditable(tx: Queryable, fields: CommunityFields, source: BrandSource, keepSources: BrandSource[] = []): Promise<BrandRow | undefined> {
  const [row] = await tx.query<BrandRow>(
    `insert into brands as b (id, domain, brand_name, source, manifest, revision)
     values ($1, $2, $3, $4, $5, 1)
     on conflict (domain) do update set
       brand_name = excluded.brand_name, manifest = excluded.manifest, source = excluded.source,
       revision = b.revision + 1, updated_at = now()
     where b.source <> 'brand_json' and not (b.source = any($6::text[]))
     returning ${COLUMNS}`,
    [fields.id, fields.domain, fields.brand_name, source, JSON.stringify(fields.manifest), keepSources],
  );
  return row;
}

export async function findOwn(db: Queryable, domain: string): Promise<BrandRow | undefined> {
  const [row] = await db.query<BrandRow>(`select ${COLUMNS} from brands b where b.domain = $1`, [domain]);
  return row;
}

export async function aliasesOf(db: Queryable, brandId: string): Promise<string[]> {
  const rows = await db.query<{ domain: string }>(`select domain from brand_aliases where brand_id = $1 order by domain`, [brandId]);
  return rows.map((r) => r.domain);
}

/** Locks the entry for a rollback, so it and a concurrent save take distinct revision numbers. */
export async function lockOwn(tx: Queryable, domain: string): Promise<BrandRow | undefined> {
  const [row] = await tx.query<BrandRow>(`select ${COLUMNS} from brands b where b.domain = $1 for update`, [domain]);
  return row;
}

export async function restore(
  tx: Queryable,
  id: string,
  fields: { brand_name: string; manifest: Record<string, unknown>; source: BrandSource; keller_type: string | null; house_domain: string | null },
): Promise<BrandRow> {
  const [row] = await tx.query<BrandRow>(
    `update brands b set brand_name = $2, manifest = $3, source = $4, keller_type = $5, house_domain = $6,
       revision = b.revision + 1, updated_at = now()
     where b.id = $1 returning ${COLUMNS}`,
    [id, fields.brand_name, JSON.stringify(fields.manifest), fields.source, fields.keller_type, fields.house_domain],
  );
  return row!;
}

export interface AuthoritativeBrand {
  id: string;
  domain: string;
  brand_name: string;
  brand_key: string | null;
  keller_type: string | null;
  house_domain: string | null;
  manifest: Record<string, unknown>;
  aliases: string[];
}

/** Writes a brand projected from its house's brand.json; it replaces any community entry. */
export async function upsertAuthoritative(tx: Queryable, brand: AuthoritativeBrand): Promise<BrandRow> {
  const [row] = await tx.query<BrandRow>(
    `insert into brands as b (id, domain, brand_name, brand_key, keller_type, house_domain, source, manifest, revision)
     values ($1, $2, $3, $4, $5, $6, 'brand_json', $7, 1)
     on conflict (domain) do update set
       brand_name = excluded.brand_name, brand_key = excluded.brand_key, keller_type = excluded.keller_type,
       house_domain = excluded.house_domain, source = 'brand_json', manifest = excluded.manifest,
       revision = b.revision + 1, updated_at = now()
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

export interface ListFilter {
  q?: string;
  source?: BrandSource;
  /** Domain of the last row of the previous page. */
  after?: string;
  limit: number;
}

/** A page ordered by domain (unique, so the keyset never skips or repeats), one more than asked. */
export async function listPage(db: Queryable, f: ListFilter): Promise<BrandRow[]> {
  return db.query<BrandRow>(
    `select ${COLUMNS} from brands b
     where ($1::text is null or b.domain ilike $1 escape '\\' or b.brand_name ilike $1 escape '\\')
       and ($2::text is null or b.source = $2)
       and ($3::text is null or b.domain > $3)
     order by b.domain limit $4`,
    [likePattern(f.q), f.source ?? null, f.after ?? null, f.limit + 1],
  );
}

export async function countBySource(db: Queryable, q: string | undefined): Promise<Record<BrandSource, number>> {
  const rows = await db.query<{ source: BrandSource; n: number }>(
    `select b.source, count(*)::int as n from brands b
     where ($1::text is null or b.domain ilike $1 escape '\\' or b.brand_name ilike $1 escape '\\')
     group by b.source`,
    [likePattern(q)],
  );
  const counts: Record<BrandSource, number> = { brand_json: 0, enriched: 0, community: 0 };
  for (const row of rows) counts[row.source] = row.n;
  return counts;
}
