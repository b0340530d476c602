import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { recordSkeleton, recordSkeletons } from '../homographs/index.ts';
import { lockEntry, recordRevision, upsertEditable } from '../entries/index.ts';
import { recordChange } from './events.ts';
import { brandKind } from './kind.ts';
import type { BrandManifest } from './rows.ts';
import * as sql from './sql.ts';
import type { BrandRow } from './sql.ts';

export async function resolve(db: Queryable, domain: string): Promise<BrandRow | undefined> {
  return (await brandKind.find(db, [domain])).get(domain);
}

export interface EnrichedInput {
  domain: string;
  brand_name: string;
  manifest: BrandManifest;
  provider: string;
}

/**
 * Stores enrichment as a revision by `system`, but only where nobody has said more: community and
 * authoritative entries are never overwritten. Returns undefined when nothing was stored.
 */
export async function saveEnriched(db: Database, input: EnrichedInput): Promise<BrandRow | undefined> {
  return db.transaction(async (tx) => {
    const resolved = await resolve(tx, input.domain);
    if (resolved && resolved.source !== 'enriched') return undefined;
    await recordSkeleton(tx, input.domain);
    const values = brandKind.editableValues({ brand_name: input.brand_name, manifest: input.manifest });
    const row = await upsertEditable<BrandRow>(
      tx,
      brandKind.tables,
      { id: randomUUID(), domain: input.domain, source: 'enriched', values },
      ['community'],
    );
    if (!row) return undefined;
    await recordRevision(tx, brandKind, row, { editor: 'system', summary: `Enriched from ${input.provider}` });
    await recordChange(tx, row, 'pipeline:enrichment');
    return row;
  });
}

/**
 * What the crawler calls for each brand of a house's brand.json. A re-crawl that finds the brand
 * as it was adds no revision and no event; a change tells the feed what resolve now answers.
 * Returns the brand and how many events it appended.
 */
export async function saveAuthoritative(
  tx: Queryable,
  brand: Omit<sql.AuthoritativeBrand, 'id'>,
  editor = 'system',
): Promise<{ row: BrandRow; events: number }> {
  const current = await lockEntry<BrandRow>(tx, brandKind.tables, brand.domain);
  if (
    current?.source === 'brand_json' &&
    isDeepStrictEqual(
      authoritativeFields(current, await sql.aliasesOf(tx, current.id)),
      authoritativeFields(brand, brand.aliases),
    )
  ) {
    return { row: current, events: 0 };
  }
  const row = await sql.upsertAuthoritative(tx, { ...brand, id: randomUUID() });
  await recordSkeletons(tx, [brand.domain, ...brand.aliases]);
  await recordRevision(tx, brandKind, row, { editor, summary: 'Projected from brand.json' });
  await recordChange(tx, row, 'pipeline:crawler');
  return { row, events: 1 };
}

function authoritativeFields(
  b: Pick<BrandRow, 'brand_name' | 'brand_key' | 'keller_type' | 'house_domain' | 'manifest'>,
  aliases: string[],
) {
  return {
    brand_name: b.brand_name,
    brand_key: b.brand_key,
    keller_type: b.keller_type,
    house_domain: b.house_domain,
    manifest: b.manifest,
    aliases: [...aliases].sort(),
  };
}
