import {
  formatKey,
  listCreativesTask as libraryListTask,
  wantsAssignments,
  type CreativeFilters,
} from '../../creative-library/index.ts';
import type { AgentTask, ResolvedAccount } from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import type { AssignmentRow, CreativeRow } from './creative.ts';
import * as sql from './sql.ts';

/**
 * `list_creatives` (creative/list-creatives-request.json): the caller's creatives, of the
 * request's account (and/or `filters.accounts`) when given, else of all its accounts; filtered by
 * status (archived ones only when asked for), tags, name, ids, format, dates and assignment (to
 * packages, to media buys, or none), sorted (created_date descending by default; ties in the order
 * they were synced) and paged by an opaque cursor (the library's shared request and answer). A
 * creative stays listed whatever became of the buys it was assigned to.
 */
export function listCreativesTask(): AgentTask {
  return libraryListTask<CreativeRow>(
    'List your creatives: filters (statuses, tags, tags_any, name_contains, creative_ids, format_ids, created/updated after/before, assigned_to_packages, media_buy_ids, unassigned), sort (created_date, updated_date, name, status, assignment_count; asc/desc), pagination (max_results, cursor). Answers each creative with its status, format, assets, tags and package assignments.',
    formatKey,
    async (request, args, ctx) => {
      const f = request.filters;
      const accounts = await accountIds(f.accounts, ctx.account, (ref) =>
        ctx.tenant.resolveAccount!(ref, { db: ctx.db, principal: ctx.principal }),
      );
      const filters: sql.SalesFilters = {
        ...request.library,
        accountIds: accounts,
        packageIds: f.assigned_to_packages,
        mediaBuyIds: f.media_buy_ids,
        unassigned: f.unassigned,
      };
      return {
        ...sql.listing(ctx.db, ownerOf(ctx.principal), filters, request.sort),
        async assignments(page) {
          const byCreative = wantsAssignments(args)
            ? await assignmentsByCreative(ctx.db, page)
            : new Map<string, AssignmentRow[]>();
          return (c) => assignmentsOf(byCreative.get(`${c.account_id} ${c.creative_id}`) ?? []);
        },
        filtersApplied: Object.keys(f),
        sandbox: ctx.account?.['sandbox'] === true,
      };
    },
  );
}

/** The accounts to list: the request's account and those of filters.accounts, all resolved among the caller's own; undefined for all of them. */
async function accountIds(
  refs: CreativeFilters['accounts'],
  account: ResolvedAccount | undefined,
  resolve: (ref: Record<string, unknown>) => Promise<ResolvedAccount | undefined>,
): Promise<string[] | undefined> {
  if (!refs) return account ? [account.account_id] : undefined;
  const ids: string[] = [];
  for (const ref of refs) {
    const resolved = await resolve(ref);
    if (resolved) ids.push(resolved.account_id);
  }
  // Both given: the creatives of accounts in both.
  return account ? ids.filter((id) => id === account.account_id) : ids;
}

async function assignmentsByCreative(
  db: Parameters<typeof sql.assignmentsOf>[0],
  page: readonly CreativeRow[],
): Promise<Map<string, AssignmentRow[]>> {
  const byKey = new Map<string, AssignmentRow[]>();
  for (const accountId of new Set(page.map((c) => c.account_id))) {
    const rows = await sql.assignmentsOf(
      db,
      accountId,
      page.filter((c) => c.account_id === accountId).map((c) => c.creative_id),
    );
    for (const row of rows)
      byKey.set(`${row.account_id} ${row.creative_id}`, [
        ...(byKey.get(`${row.account_id} ${row.creative_id}`) ?? []),
        row,
      ]);
  }
  return byKey;
}

function assignmentsOf(rows: readonly AssignmentRow[]) {
  return {
    assignment_count: rows.length,
    assigned_packages: rows.map((r) => ({
      package_id: r.package_id,
      assigned_date: r.assigned_at.toISOString(),
      ...(r.weight === null ? {} : { weight: r.weight }),
      ...(r.placement_ids === null ? {} : { placement_ids: r.placement_ids }),
    })),
  };
}
