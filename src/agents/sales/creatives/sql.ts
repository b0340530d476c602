import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import {
  creativesByIds as byIdsIn,
  formatKey,
  listing as listingIn,
  lockLibrary as lockIn,
  upsertCreative as upsertIn,
  type CreativeStatus,
  type LibraryFilters,
  type LibraryQuery,
  type LibraryTable,
  type Sort,
} from '../../creative-library/index.ts';
import type { PackageAssignmentRow } from './buys.ts';
import type { AssignmentRow, CreativeRow } from './creative.ts';

/** sales_creatives: one library an account (its ids are unique across owners), formats keyed as spelled. */
const table: LibraryTable = {
  table: 'sales_creatives',
  keyColumns: ['account_id'],
  scopeColumn: 'account_id',
  formatKey,
  assignmentCount: `(select count(*) from sales_creative_assignments a where a.account_id = c.account_id and a.creative_id = c.creative_id)`,
};

/** Serializes the syncs of one account's library, so two never both decide a creative is new. */
export const lockLibrary = (tx: Queryable, accountId: string) => lockIn(tx, table, [accountId]);

export const creativesByIds = (db: Queryable, accountId: string, creativeIds: readonly string[]) =>
  byIdsIn<CreativeRow>(db, table, [accountId], creativeIds);

/** Inserts the creative, or replaces what a sync may change of it (its creation time and order stay). */
export const upsertCreative = (tx: Queryable, c: Omit<CreativeRow, 'seq'>) =>
  upsertIn(tx, table, { owner: c.owner, scope: c.account_id }, c);

export async function assignmentsOf(
  db: Queryable,
  accountId: string,
  creativeIds: readonly string[],
): Promise<AssignmentRow[]> {
  if (creativeIds.length === 0) return [];
  return db.query<AssignmentRow>(
    `select account_id, creative_id, package_id, weight::float8 as weight, placement_ids, assigned_at from sales_creative_assignments
     where account_id = $1 and creative_id = any($2::text[]) order by assigned_at, package_id`,
    [accountId, creativeIds],
  );
}

/** Assigns, or changes the weight and placements of an assignment already made (its date stays). */
export async function upsertAssignment(tx: Queryable, a: AssignmentRow): Promise<void> {
  await tx.query(
    `insert into sales_creative_assignments (account_id, creative_id, package_id, weight, placement_ids, assigned_at) values ($1, $2, $3, $4, $5, $6)
     on conflict (account_id, creative_id, package_id) do update set weight = excluded.weight, placement_ids = excluded.placement_ids`,
    [
      a.account_id,
      a.creative_id,
      a.package_id,
      a.weight,
      a.placement_ids === null ? null : JSON.stringify(a.placement_ids),
      a.assigned_at,
    ],
  );
}

/** The creatives assigned to these packages, each package's in the order they were assigned. */
export async function assignmentsOfPackages(
  db: Queryable,
  packageIds: readonly string[],
): Promise<PackageAssignmentRow[]> {
  if (packageIds.length === 0) return [];
  return db.query<PackageAssignmentRow>(
    `select package_id, creative_id, weight::float8 as weight, placement_ids from sales_creative_assignments where package_id = any($1::text[]) order by package_id, assigned_at, creative_id`,
    [packageIds],
  );
}

/** Takes creatives off a package: the assignment rows go (the creatives stay in the library). */
export async function unassign(
  tx: Queryable,
  accountId: string,
  packageId: string,
  creativeIds: readonly string[],
): Promise<void> {
  if (creativeIds.length === 0) return;
  await tx.query(
    `delete from sales_creative_assignments where account_id = $1 and package_id = $2 and creative_id = any($3::text[])`,
    [accountId, packageId, creativeIds],
  );
}

/** The sales library's filters: the ones every library has, its accounts, and assignment to packages of media buys. */
export interface SalesFilters extends LibraryFilters {
  accountIds?: readonly string[];
  packageIds?: readonly string[];
  mediaBuyIds?: readonly string[];
  unassigned?: boolean;
}

const assignedTo = `exists (select 1 from sales_creative_assignments a where a.account_id = c.account_id and a.creative_id = c.creative_id`;

function query(owner: string, f: SalesFilters): LibraryQuery {
  return {
    owner,
    filters: f,
    own: (p) => [
      ...(f.accountIds ? [`c.account_id = any(${p.add(f.accountIds, 'text[]')})`] : []),
      ...(f.packageIds ? [`${assignedTo} and a.package_id = any(${p.add(f.packageIds, 'text[]')}))`] : []),
      ...(f.mediaBuyIds
        ? [
            `${assignedTo} and a.package_id in (select package_id from sales_media_buy_packages where media_buy_id = any(${p.add(f.mediaBuyIds, 'text[]')})))`,
          ]
        : []),
      ...(f.unassigned !== undefined ? [`${p.add(f.unassigned, 'boolean')} <> ${assignedTo})`] : []),
    ],
  };
}

/** The owner's creatives the filters select, in `sort`'s order, as list_creatives pages and counts them. */
export const listing = (db: Queryable, owner: string, filters: SalesFilters, sort: Sort) =>
  listingIn<CreativeRow>(db, table, query(owner, filters), sort);

/** The owner's creative of the account, locked until the transaction ends. */
export async function lockCreative(
  tx: Queryable,
  owner: string,
  accountId: string,
  creativeId: string,
): Promise<CreativeRow | undefined> {
  return firstRow<CreativeRow>(
    tx,
    `select seq, owner, account_id, creative_id, name, format_id, assets, tags, status, details, created_at, updated_at
     from sales_creatives where owner = $1 and account_id = $2 and creative_id = $3 for update`,
    [owner, accountId, creativeId],
  );
}

/** One entry of a creative's history (sales_creative_changes). */
export interface CreativeChange {
  change: 'seeded' | 'status';
  status: CreativeStatus;
  reason: string | null;
  changed_by: string;
  changed_at: Date;
}

/** Sets the creative's status and records the change in the same statement: the row and its history never disagree. */
export async function setStatus(
  tx: Queryable,
  accountId: string,
  creativeId: string,
  change: Omit<CreativeChange, 'change'>,
): Promise<void> {
  await tx.query(
    `with written as (update sales_creatives set status = $3, updated_at = $6 where account_id = $1 and creative_id = $2 returning account_id, creative_id, status)
     insert into sales_creative_changes (account_id, creative_id, change, status, reason, changed_by, changed_at) select account_id, creative_id, 'status', status, $4, $5, $6 from written`,
    [accountId, creativeId, change.status, change.reason, change.changed_by, change.changed_at],
  );
}

export async function recordChange(
  tx: Queryable,
  accountId: string,
  creativeId: string,
  change: CreativeChange,
): Promise<void> {
  await tx.query(
    `insert into sales_creative_changes (account_id, creative_id, change, status, reason, changed_by, changed_at) values ($1, $2, $3, $4, $5, $6, $7)`,
    [accountId, creativeId, change.change, change.status, change.reason, change.changed_by, change.changed_at],
  );
}

/** A creative's changes, oldest first. */
export async function changesOf(db: Queryable, accountId: string, creativeId: string): Promise<CreativeChange[]> {
  return db.query<CreativeChange>(
    `select change, status, reason, changed_by, changed_at from sales_creative_changes where account_id = $1 and creative_id = $2 order by id`,
    [accountId, creativeId],
  );
}
