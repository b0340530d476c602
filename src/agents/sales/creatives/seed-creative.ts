import type { Queryable } from '../../../db/database.ts';
import type { Format } from '../../formats/index.ts';
import { checkPublishedRequest } from '../../runtime/index.ts';
import { creativeProblems, detailsOf, type CreativeAsset, type CreativeStatus } from '../../creative-library/index.ts';
import type { Product } from '../catalog/index.ts';
import { sellerFormats } from './check-creative.ts';
import { creativeFixture } from './seed-defaults.ts';
import { reviewStatus } from './creative.ts';
import * as sql from './sql.ts';

const CREATIVE = '/schemas/3.0.6/core/creative-asset.json';

export interface CreativeSeed {
  owner: string;
  account: { account_id: string; sandbox?: unknown };
  creativeId: string;
  /** core/creative-asset.json without its creative_id; its `status` is the one the creative gets. */
  fixture: Record<string, unknown>;
  formats: readonly Format[];
  /** The account's products: the format a fixture that names none is of. */
  products: readonly Product[];
  by: string;
  at: Date;
}

/**
 * Puts a creative into the account's library under an id its caller names (a sandbox test
 * controller's seed): the fixture with what it leaves out filled in (creativeFixture), checked as
 * sync_creatives checks one (published schema, format, the format's assets), with the fixture's
 * status or the one a sync would give it; its history records the seed.
 * Throws the AgentError of its first problem; false, writing nothing, when the account already has
 * a creative of that id.
 */
export async function seedCreative(tx: Queryable, seed: CreativeSeed): Promise<boolean> {
  const creative = {
    ...creativeFixture(seed.creativeId, seed.fixture, seed.formats, seed.products),
    creative_id: seed.creativeId,
  } as CreativeAsset;
  checkPublishedRequest(CREATIVE, creative, 'fixture');
  const [problem] = creativeProblems(creative, sellerFormats(seed.formats), 'fixture');
  if (problem) throw problem;
  const accountId = seed.account.account_id;
  await sql.lockLibrary(tx, accountId);
  if ((await sql.creativesByIds(tx, accountId, [seed.creativeId])).length > 0) return false;
  const status = (creative['status'] as CreativeStatus | undefined) ?? reviewStatus(seed.account.sandbox === true);
  await sql.upsertCreative(tx, {
    owner: seed.owner,
    account_id: accountId,
    creative_id: seed.creativeId,
    name: creative.name,
    format_id: creative.format_id,
    assets: creative.assets,
    tags: creative.tags ?? [],
    status,
    details: detailsOf(creative),
    created_at: seed.at,
    updated_at: seed.at,
  });
  await sql.recordChange(tx, accountId, seed.creativeId, {
    change: 'seeded',
    status,
    reason: null,
    changed_by: seed.by,
    changed_at: seed.at,
  });
  return true;
}
