import { AgentError } from '../../../protocol/errors.ts';
import { sameFormatId, type Format, type FormatId } from '../../formats/index.ts';
import type { Shelf } from '../offering.ts';
import type { Queryable } from '../../../db/database.ts';
import {
  toAssignment,
  type CreativeAssignment,
  type CreativeLibrary,
  type CreativesChange,
  type LibraryOwner,
  type PackageCreatives,
} from './buys.ts';
import { refusal, stageCreatives, type CreativeAsset, type LibraryCreative } from '../../creative-library/index.ts';
import { reviewStatus } from './creative.ts';
import { sellerFormats } from './check-creative.ts';
import * as sql from './sql.ts';

export interface BuysLibraryOptions {
  /** What the account sees: the formats creatives must be of, as sync_creatives checks them. */
  shelf: Shelf;
}

/**
 * The library as create_media_buy and update_media_buy use it. Creatives sent inline are checked
 * as sync_creatives checks them (stageCreatives) and must be of a format their package takes; then
 * stored. Library creatives named by creative_assignments must be the account's (CREATIVE_NOT_FOUND,
 * inline ones of the same call included) and of a format their package takes (VALIDATION_ERROR).
 * A package's creative_assignments replace its assignments (the others are removed); inline
 * creatives are assigned besides. The first problem is the answer, and the call's transaction
 * writes nothing.
 */
export function libraryForBuys({ shelf }: BuysLibraryOptions): CreativeLibrary {
  return {
    lock: sql.lockLibrary,
    async assign(db, library, packages, now) {
      if (packages.length === 0) return [];
      await sql.lockLibrary(db, library.accountId);
      const { formats } = await shelf(db, { account_id: library.accountId, sandbox: library.sandbox });
      await upload(db, library, packages, now, formats);
      await checkAssignments(db, library.accountId, packages);
      return reassign(db, library.accountId, packages, now);
    },
  };
}

const takes = (formats: readonly FormatId[], format: FormatId) => formats.some((f) => sameFormatId(f, format));
const formatList = (formats: readonly FormatId[]) => formats.map((f) => f.id).join(', ') || 'none';

/** Checks and stores the creatives sent inline with packages. */
async function upload(
  db: Queryable,
  library: LibraryOwner,
  packages: readonly PackageCreatives[],
  now: Date,
  formats: readonly Format[],
): Promise<void> {
  const sent = packages.flatMap((pkg) =>
    (pkg.creatives ?? []).map((creative, j) => ({
      creative: creative as CreativeAsset,
      at: `${pkg.at}.creatives[${j}]`,
      pkg,
    })),
  );
  if (sent.length === 0) return;
  const stored = new Map<string, LibraryCreative>(
    (
      await sql.creativesByIds(
        db,
        library.accountId,
        sent.map((s) => s.creative.creative_id),
      )
    ).map((row) => [row.creative_id, row]),
  );
  const { results, writes } = stageCreatives(sent, stored, {
    now,
    formats: sellerFormats(formats),
    status: reviewStatus(library.sandbox),
  });
  const failed = [...results.values()].filter((r) => r.action === 'failed');
  if (failed.length > 0)
    throw refusal(failed, results.size, 'Fix them and send the request again; none of it was applied.');
  for (const { creative, at, pkg } of sent) {
    if (!takes(pkg.formats, creative.format_id)) {
      throw new AgentError(
        'VALIDATION_ERROR',
        `Creative ${creative.creative_id} is of format ${creative.format_id.id}, which package ${pkg.package_id} does not take (${formatList(pkg.formats)}).`,
        {
          field: `${at}.format_id`,
        },
      );
    }
  }
  for (const row of writes)
    await sql.upsertCreative(db, { ...row, owner: library.owner, account_id: library.accountId });
}

async function checkAssignments(
  db: Queryable,
  accountId: string,
  packages: readonly PackageCreatives[],
): Promise<void> {
  const named = packages.flatMap((pkg) =>
    (pkg.assignments ?? []).map((a, j) => ({ ...a, j, at: `${pkg.at}.creative_assignments[${j}]`, pkg })),
  );
  const stored = new Map(
    (
      await sql.creativesByIds(
        db,
        accountId,
        named.map((a) => a.creative_id),
      )
    ).map((c) => [c.creative_id, c]),
  );
  for (const a of named) {
    if (a.pkg.assignments!.findIndex((other) => other.creative_id === a.creative_id) !== a.j) {
      throw new AgentError(
        'INVALID_REQUEST',
        `Creative ${a.creative_id} is assigned to package ${a.pkg.package_id} more than once; name it once.`,
        { field: `${a.at}.creative_id` },
      );
    }
    const creative = stored.get(a.creative_id);
    if (!creative)
      throw new AgentError(
        'CREATIVE_NOT_FOUND',
        `Account ${accountId} has no creative ${a.creative_id}; upload it with sync_creatives first.`,
        { field: `${a.at}.creative_id` },
      );
    if (!takes(a.pkg.formats, creative.format_id)) {
      throw new AgentError(
        'VALIDATION_ERROR',
        `Creative ${a.creative_id} is of format ${creative.format_id.id}, which this package does not take (${formatList(a.pkg.formats)}).`,
        { field: `${a.at}.creative_id` },
      );
    }
  }
}

/** How a creative runs in a package, compared to tell a changed assignment from a kept one. */
const terms = (a: { weight?: number | null; placement_ids?: string[] | null }) =>
  JSON.stringify([a.weight ?? null, a.placement_ids ?? null]);

/** Writes each package's assignments as the call leaves them, answering what changed. */
async function reassign(
  db: Queryable,
  accountId: string,
  packages: readonly PackageCreatives[],
  now: Date,
): Promise<CreativesChange[]> {
  const current = await sql.assignmentsOfPackages(
    db,
    packages.map((p) => p.package_id),
  );
  const changes: CreativesChange[] = [];
  for (const pkg of packages) {
    const before = new Map(
      current.filter((row) => row.package_id === pkg.package_id).map((row) => [row.creative_id, row]),
    );
    const wanted = new Map<string, CreativeAssignment>(
      pkg.assignments
        ? pkg.assignments.map((a) => [a.creative_id, a])
        : [...before].map(([id, row]) => [id, toAssignment(row)]),
    );
    for (const creative of pkg.creatives ?? []) {
      const { creative_id, weight, placement_ids } = creative as CreativeAsset & CreativeAssignment;
      wanted.set(creative_id, {
        creative_id,
        ...(weight === undefined ? {} : { weight }),
        ...(placement_ids === undefined ? {} : { placement_ids }),
      });
    }
    const change: CreativesChange = {
      package_id: pkg.package_id,
      assigned: [...wanted.keys()].filter((id) => !before.has(id)),
      unassigned: [...before.keys()].filter((id) => !wanted.has(id)),
      reweighted: [...wanted.keys()].filter(
        (id) => before.has(id) && terms(before.get(id)!) !== terms(wanted.get(id)!),
      ),
    };
    await sql.unassign(db, accountId, pkg.package_id, change.unassigned);
    for (const id of [...change.assigned, ...change.reweighted]) {
      const a = wanted.get(id)!;
      await sql.upsertAssignment(db, {
        account_id: accountId,
        creative_id: id,
        package_id: pkg.package_id,
        weight: a.weight ?? null,
        placement_ids: a.placement_ids ?? null,
        assigned_at: now,
      });
    }
    changes.push(change);
  }
  return changes;
}
