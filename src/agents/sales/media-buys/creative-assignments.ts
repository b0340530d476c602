import type { FormatId } from '../../formats/index.ts';
import type { Queryable } from '../../../db/database.ts';
import type { Product } from '../catalog/index.ts';
import * as sql from './sql.ts';
import type { HistoryEntry, PackageAssignmentRow, PackageRow } from './media-buy.ts';
import { isTerminal, statusWithCreatives, type MediaBuyStatus } from './state.ts';

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
export async function assignablePackages(
  db: Queryable,
  owner: string,
  accountId: string,
  packageIds: readonly string[],
  products: readonly Product[],
): Promise<AssignablePackage[]> {
  const rows = await sql.packagesOfAccount(db, owner, accountId, [...new Set(packageIds)]);
  return rows.map((row) => {
    const closed = isTerminal(row.buy_status)
      ? `its media buy ${row.media_buy_id} is ${row.buy_status}`
      : row.cancellation
        ? 'the package is canceled'
        : undefined;
    return {
      package_id: row.package_id,
      media_buy_id: row.media_buy_id,
      formats: formatsOf(row, products),
      ...(closed ? { closed } : {}),
    };
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
export async function recordCreativesAssigned(
  tx: Queryable,
  change: CreativesAssigned,
): Promise<{ status: MediaBuyStatus; revision: number }> {
  const buy = await sql.lockBuy(tx, change.owner, change.mediaBuyId);
  if (!buy) throw new Error(`media buy ${change.mediaBuyId} vanished under its lock`);
  const status = statusWithCreatives(buy.status, true, buy.start_time, change.now);
  const revision = buy.revision + 1;
  await sql.updateBuy(tx, { ...buy, status, revision, updated_at: change.now });
  const changes = [...change.byPackage].map(([packageId, creativeIds]) => ({
    package_id: packageId,
    assigned: [...creativeIds],
    unassigned: [],
    reweighted: [],
  }));
  await sql.recordHistory(
    tx,
    change.mediaBuyId,
    creativesHistory(changes, buy.status, status).map((e) => ({
      ...e,
      revision,
      status,
      actor: change.actor,
      at: change.now,
    })),
  );
  return { status, revision };
}

/** The history entries of changes to packages' creatives, each saying so when the buy's status moved with them. */
export function creativesHistory(
  changes: readonly CreativesChange[],
  before: MediaBuyStatus,
  after: MediaBuyStatus,
): Array<Pick<HistoryEntry, 'action' | 'summary' | 'package_id'>> {
  const moved = before === after ? '' : ` The buy has its first creative: ${after}.`;
  const creatives = (ids: readonly string[]) => `Creative${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
  return changes.flatMap((c) =>
    [
      ...(c.assigned.length > 0
        ? [{ action: 'creatives_assigned', summary: `${creatives(c.assigned)} assigned to ${c.package_id}.` }]
        : []),
      ...(c.unassigned.length > 0
        ? [{ action: 'creatives_unassigned', summary: `${creatives(c.unassigned)} unassigned from ${c.package_id}.` }]
        : []),
      ...(c.reweighted.length > 0
        ? [
            {
              action: 'updated_packages',
              summary: `${creatives(c.reweighted)} of ${c.package_id} given another weight or placements.`,
            },
          ]
        : []),
    ].map((e) => ({ ...e, package_id: c.package_id, summary: `${e.summary}${moved}`.slice(0, 500) })),
  );
}

/** core/creative-assignment.json: a library creative to run in a package. */
export interface CreativeAssignment {
  creative_id: string;
  weight?: number;
  placement_ids?: string[];
}

/** What one call gives a package of creatives: library creatives by id, creatives uploaded with the call, or both. */
export interface PackageCreatives {
  package_id: string;
  /** The formats the package takes. */
  formats: readonly FormatId[];
  /** Where in the request the package is (`packages[0]`, `new_packages[1]`), for errors. */
  at: string;
  /** creative_assignments: the package's whole list from now on (replacement, as package-update.json says); absent leaves it as it is. */
  assignments?: readonly CreativeAssignment[];
  /** creatives (core/creative-asset.json): uploaded into the account's library, then assigned besides the others. */
  creatives?: ReadonlyArray<Record<string, unknown>>;
}

/** What became of one package's assignments: creative ids newly assigned, unassigned, and kept with another weight or placements. */
export interface CreativesChange {
  package_id: string;
  assigned: string[];
  unassigned: string[];
  reweighted: string[];
}

/** The library a call writes to: the caller's, on one account. */
export interface LibraryOwner {
  owner: string;
  accountId: string;
  sandbox: boolean;
}

/**
 * The creative library as media buys need it (given by the sales agent, so media buys do not
 * depend on the library's module), working in the call's transaction.
 */
export interface CreativeLibrary {
  /**
   * Serializes with the account's other library writes (sync_creatives). A call that locks a buy
   * takes this first, in the order sync_creatives takes them, so the two never deadlock.
   */
  lock(db: Queryable, accountId: string): Promise<void>;
  /**
   * Uploads and assigns each package's creatives: inline creatives checked as sync_creatives
   * checks them (refused whole with VALIDATION_ERROR, per creative in details.creatives), library
   * creatives the account's (CREATIVE_NOT_FOUND) and each of a format its package takes
   * (VALIDATION_ERROR). A typed AgentError at the first problem; the caller's transaction then
   * writes nothing.
   */
  assign(
    db: Queryable,
    library: LibraryOwner,
    packages: readonly PackageCreatives[],
    now: Date,
  ): Promise<CreativesChange[]>;
}

/** The creatives assigned to these packages, each package's in the order they were assigned. */
export function packageAssignments(db: Queryable, packageIds: readonly string[]): Promise<PackageAssignmentRow[]> {
  return sql.assignmentsOfPackages(db, packageIds);
}

/** What new packages (package-request.json) give of creatives, for the library to assign; none when they give none. */
export function creativesOfNewPackages(
  requests: ReadonlyArray<{ creative_assignments?: unknown[]; creatives?: unknown[] }>,
  rows: readonly PackageRow[],
  products: readonly Product[],
  at: string,
): PackageCreatives[] {
  return rows.flatMap((row, i) => {
    const { creative_assignments: assignments, creatives } = requests[i]!;
    if (assignments === undefined && creatives === undefined) return [];
    return [
      {
        package_id: row.package_id,
        formats: formatsOf(row, products),
        at: `${at}[${i}]`,
        ...(assignments ? { assignments: assignments as CreativeAssignment[] } : {}),
        ...(creatives ? { creatives: creatives as Array<Record<string, unknown>> } : {}),
      },
    ];
  });
}

/** The formats a package takes: its own format_ids when it named some, else its product's (none when the product is no longer sold). */
export function formatsOf(
  pkg: Pick<PackageRow, 'details' | 'product_id'>,
  products: readonly Product[],
): readonly FormatId[] {
  return (
    (pkg.details['format_ids'] as FormatId[] | undefined) ??
    products.find((p) => p.product_id === pkg.product_id)?.format_ids ??
    []
  );
}
