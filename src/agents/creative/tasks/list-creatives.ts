import { listCreativesTask as libraryListTask, type CreativeFilters } from '../../creative-library/index.ts';
import { ownerOf, type AgentTask } from '../../runtime/index.ts';
import { accountKey, isSandbox } from '../library/account.ts';
import * as sql from '../library/sql.ts';
import { ownFormatKey } from '../own-formats.ts';

/** Filters about packages and media buys, which creative-filters.json says an agent without media buys ignores. */
const ignored = new Set<keyof CreativeFilters>(['assigned_to_packages', 'media_buy_ids', 'unassigned']);

// Nothing here is assigned to a package.
const noAssignments = { assignment_count: 0, assigned_packages: [] };

/**
 * `list_creatives` (creative/list-creatives-request.json) over this agent's library: the caller's
 * organization's creatives, of the library the request's `account` names (and/or those of
 * `filters.accounts`), else of all its libraries; filtered by status (archived ones only when
 * asked for), tags, name, ids, format (any spelling of this agent's URL) and dates, sorted
 * (created_date descending by default; ties in the order they were synced) and paged by an opaque
 * cursor, as the sales agent's library answers (creative-library/).
 */
export function listCreativesTask(): AgentTask {
  return libraryListTask(
    'List the creatives of your library here: account (optional) names one library; filters (statuses, tags, tags_any, name_contains, creative_ids, format_ids, created/updated after/before, accounts), sort (created_date, updated_date, name, status; asc/desc), pagination (max_results, cursor). Archived creatives are listed only when a status filter names them.',
    ownFormatKey,
    async (request, args, ctx) => {
      const f = request.filters;
      const filters: sql.ListFilters = {
        ...request.library,
        accountKeys: accountKeys(args['account'] as Record<string, unknown> | undefined, f.accounts),
      };
      return {
        ...sql.listing(ctx.db, ownerOf(ctx.principal), filters, request.sort),
        assignments: async () => () => noAssignments,
        filtersApplied: (Object.keys(f) as Array<keyof CreativeFilters>).filter((k) => !ignored.has(k)),
        sandbox: isSandbox(args['account']),
      };
    },
  );
}

/** The libraries to list: the request's account and those of filters.accounts (both given: the account, if among them); undefined for all. */
function accountKeys(
  account: Record<string, unknown> | undefined,
  accounts: CreativeFilters['accounts'],
): string[] | undefined {
  const named = accounts?.map(accountKey);
  if (!account) return named;
  const key = accountKey(account);
  return !named || named.includes(key) ? [key] : [];
}
