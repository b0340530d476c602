import type { Queryable } from '../../db/database.ts';
import { announceResolution, resolutionSnapshot, type ResolutionChange } from '../entries/index.ts';
import { toResolution } from './rows.ts';
import { aliasesOf, pageById, type BrandRow } from './sql.ts';

/** Tells the feed what resolve now answers for the brand's domain and its aliases; call it after every write of a brand. */
export async function recordChange(tx: Queryable, row: BrandRow, actor: string): Promise<void> {
  await announceResolution(tx, change(row, await aliasesOf(tx, row.id)), actor);
}

/** Every brand as its `resolution.brand_updated` event carries it, for the registry snapshot. */
export const brandResolutions = resolutionSnapshot(async (db, after, limit) =>
  (await pageById(db, after, limit)).map(({ aliases, ...row }) => change(row, aliases)),
);

function change(row: BrandRow, aliases: string[]): ResolutionChange {
  return { kind: 'brand', id: row.id, domain: row.domain, resolution: toResolution(row), aliases };
}
