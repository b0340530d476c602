import type { FormatId } from '../../formats/index.ts';
import type { Queryable } from '../../../db/database.ts';
import type { Product } from '../catalog/index.ts';
import * as sql from './sql.ts';
import { isTerminal, runningStatus, type MediaBuyStatus } from './state.ts';

/** A package of the caller's buys as the creative library sees it: which formats it takes, and why it takes none. */
export interface AssignablePackage {
  package_id: string;
  media_buy_id: string;
  /** The package's own format_ids when it named some, else its product's. */
  formats: readonly FormatId[];
  /** Why no creative may be assigned to it now (its buy finished, the package canceled); undefined when it may. */
  closed?: string;
}

/** The packages among `packageIds` of the owner's buys on this account; an id not among them is not the caller's (or does not exist). */
export async function assignablePackages(db: Queryable, owner: string, accountId: string, packageIds: readonly string[], products: readonly Product[]): Promise<AssignablePackage[]> {
  const rows = await sql.packagesOfAccount(db, owner, accountId, [...new Set(packageIds)]);
  return rows.map((row) => {
    const own = row.details['format_ids'] as FormatId[] | undefined;
    const product = products.find((p) => p.product_id === row.product_id);
    const closed = isTerminal(row.buy_status)
      ? `its media buy ${row.media_buy_id} is ${row.buy_status}`
      : row.cancellation
        ? 'the package is canceled'
        : undefined;
    return { package_id: row.package_id, media_buy_id: row.media_buy_id, formats: own ?? product?.format_ids ?? [], ...(closed ? { closed } : {}) };
  });
}

export interface CreativesAssigned {
  owner: string;
  mediaBuyId: string;
  /** The creatives newly assigned, by package. */
  byPackage: ReadonlyMap<string, readonly string[]>;
  actor: string;
  now: Date;
}

/**
 * Records creatives newly assigned to packages of one buy, as one change of the buy: its revision
 * bumps by one, each package gets a history entry, and a buy that was waiting for creatives moves
 * on to pending_start or active by its flight. Locks the buy's row, as update_media_buy does.
 */
export async function recordCreativesAssigned(tx: Queryable, change: CreativesAssigned): Promise<{ status: MediaBuyStatus; revision: number }> {
  const buy = await sql.lockBuy(tx, change.owner, change.mediaBuyId);
  if (!buy) throw new Error(`media buy ${change.mediaBuyId} vanished under its lock`);
  const status = buy.status === 'pending_creatives' ? runningStatus({ creatives: 1, start: buy.start_time }, change.now) : buy.status;
  const revision = buy.revision + 1;
  await sql.updateBuy(tx, { ...buy, status, revision, updated_at: change.now });
  const moved = status === buy.status ? '' : ` The buy has its first creative: ${status}.`;
  await sql.recordHistory(
    tx,
    change.mediaBuyId,
    [...change.byPackage].map(([packageId, creativeIds]) => ({
      revision,
      action: 'creatives_assigned',
      package_id: packageId,
      summary: `Creative${creativeIds.length === 1 ? '' : 's'} ${creativeIds.join(', ')} assigned to ${packageId}.${moved}`.slice(0, 500),
      status,
      actor: change.actor,
      at: change.now,
    })),
  );
  return { status, revision };
}

/** One library creative a new package names (package-request.json's creative_assignments[]). */
export interface NewAssignment {
  creative_id: string;
  package_id: string;
  weight?: number;
  placement_ids?: string[];
  /** The formats the package takes. */
  formats: readonly FormatId[];
  /** Where in the request it was named, for errors. */
  at: string;
}

/**
 * The creative library as create_media_buy needs it (given by the sales agent, so media buys do
 * not depend on the library's module): assigns the account's library creatives to new packages
 * in the call's transaction, throwing a typed AgentError for a creative the account does not have
 * or of a format its package does not take.
 */
export interface CreativeLibrary {
  assign(db: Queryable, accountId: string, assignments: readonly NewAssignment[], now: Date): Promise<void>;
}
