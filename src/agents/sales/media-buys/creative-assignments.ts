import type { FormatId } from '../../formats/index.ts';
import type { Queryable } from '../../../db/database.ts';
import type { Product } from '../catalog/index.ts';
import type {
  AssignablePackage,
  CreativeAssignment,
  CreativesAssigned,
  CreativesChange,
  PackageCreatives,
} from '../creatives/index.ts';
import * as sql from './sql.ts';
import type { HistoryEntry, PackageRow } from './media-buy.ts';
import { isTerminal, statusWithCreatives, type MediaBuyStatus } from './state.ts';

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
