import type { FormatId } from '../../formats/index.ts';
import { checkPublishedRequest, type AgentTask, type ResolvedAccount, cursorPosition, defaultPageSize, pageCursor, pageRequestInput } from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import { formatKey, type AssignmentRow, type CreativeRow, type CreativeStatus } from './creative.ts';
import * as sql from './sql.ts';

const REQUEST = '/schemas/3.0.6/creative/list-creatives-request.json';

interface Filters {
  accounts?: Record<string, unknown>[];
  statuses?: CreativeStatus[];
  tags?: string[];
  tags_any?: string[];
  name_contains?: string;
  creative_ids?: string[];
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  assigned_to_packages?: string[];
  media_buy_ids?: string[];
  unassigned?: boolean;
  has_served?: boolean;
  concept_ids?: string[];
  format_ids?: FormatId[];
  has_variables?: boolean;
}

/**
 * `list_creatives` (creative/list-creatives-request.json): the caller's creatives, of the
 * request's account (and/or `filters.accounts`) when given, else of all its accounts; filtered by
 * status, tags, name, ids, format, dates and assignment (to packages, to media buys, or none),
 * sorted (created_date descending by default; ties in the order they were synced) and paged by an
 * opaque cursor. A creative stays listed whatever became of the buys it was assigned to. Nothing
 * here has served, has variables or belongs to a concept, so those filters match accordingly.
 */
export function listCreativesTask(): AgentTask {
  return {
    name: 'list_creatives',
    description:
      'List your creatives: filters (statuses, tags, tags_any, name_contains, creative_ids, format_ids, created/updated after/before, assigned_to_packages, media_buy_ids, unassigned), sort (created_date, updated_date, name, status, assignment_count; asc/desc), pagination (max_results, cursor). Answers each creative with its status, format, assets, tags and package assignments.',
    input: {
      type: 'object',
      properties: {
        account: { type: 'object', description: 'core/account-ref.json: only this account’s creatives.' },
        filters: { type: 'object', description: 'core/creative-filters.json' },
        sort: { type: 'object', properties: { field: { type: 'string', enum: Object.keys(sql.sortColumns) }, direction: { type: 'string', enum: ['asc', 'desc'] } } },
        pagination: pageRequestInput,
        include_assignments: { type: 'boolean' },
        include_snapshot: { type: 'boolean' },
        fields: { type: 'array', items: { type: 'string' } },
      },
      additionalProperties: true,
    },
    output: { $ref: '/schemas/3.0.6/creative/list-creatives-response.json' },
    mutates: false,
    async handler(args, ctx) {
      checkPublishedRequest(REQUEST, args);
      const owner = ownerOf(ctx.principal);
      const f = (args['filters'] ?? {}) as Filters;
      const accounts = await accountIds(f.accounts, ctx.account, (ref) => ctx.tenant.resolveAccount!(ref, { db: ctx.db, principal: ctx.principal }));
      const filters: sql.LibraryFilters = {
        accountIds: accounts,
        statuses: f.statuses,
        tagsAll: f.tags,
        tagsAny: f.tags_any,
        nameContains: f.name_contains,
        creativeIds: f.creative_ids,
        formatKeys: f.format_ids?.map(formatKey),
        createdAfter: f.created_after,
        createdBefore: f.created_before,
        updatedAfter: f.updated_after,
        updatedBefore: f.updated_before,
        packageIds: f.assigned_to_packages,
        mediaBuyIds: f.media_buy_ids,
        unassigned: f.unassigned,
        none: f.has_served === true || f.has_variables === true || f.concept_ids !== undefined,
      };
      const sortAsked = (args['sort'] ?? {}) as { field?: sql.SortField; direction?: 'asc' | 'desc' };
      const sort = { field: sortAsked.field ?? 'created_date', direction: sortAsked.direction ?? 'desc' };
      const pagination = (args['pagination'] ?? {}) as { max_results?: number; cursor?: string };
      const size = pagination.max_results ?? defaultPageSize;
      const offset = pagination.cursor === undefined ? 0 : cursorPosition('c', pagination.cursor);

      const rows = await sql.library(ctx.db, owner, filters, sort, offset, size + 1);
      const page = rows.slice(0, size);
      const hasMore = rows.length > size;
      const total = await sql.countLibrary(ctx.db, owner, filters);
      const withAssignments = args['include_assignments'] !== false;
      const assignments = withAssignments ? await assignmentsByCreative(ctx.db, page) : new Map<string, AssignmentRow[]>();
      const fields = args['fields'] as string[] | undefined;
      const wanted = (field: string) => !fields || fields.includes(field);

      const creatives = page.map((c) => ({
        creative_id: c.creative_id,
        name: c.name,
        format_id: c.format_id,
        status: c.status,
        created_date: c.created_at.toISOString(),
        updated_date: c.updated_at.toISOString(),
        ...(fields ? {} : { ...c.details, assets: c.assets }),
        ...(wanted('tags') ? { tags: c.tags } : {}),
        ...(withAssignments && wanted('assignments') ? { assignments: assignmentsOf(assignments.get(`${c.account_id} ${c.creative_id}`) ?? []) } : {}),
        ...(args['include_snapshot'] === true ? { snapshot_unavailable_reason: 'SNAPSHOT_UNSUPPORTED' } : {}),
      }));
      return {
        query_summary: {
          total_matching: total,
          returned: creatives.length,
          filters_applied: Object.keys(f),
          sort_applied: sort,
        },
        pagination: { has_more: hasMore, ...(hasMore ? { cursor: pageCursor('c', offset + size) } : {}), total_count: total },
        creatives,
        sandbox: ctx.account?.['sandbox'] === true,
      };
    },
  };
}

/** The accounts to list: the request's account and those of filters.accounts, all resolved among the caller's own; undefined for all of them. */
async function accountIds(refs: Filters['accounts'], account: ResolvedAccount | undefined, resolve: (ref: Record<string, unknown>) => Promise<ResolvedAccount | undefined>): Promise<string[] | undefined> {
  if (!refs) return account ? [account.account_id] : undefined;
  const ids: string[] = [];
  for (const ref of refs) {
    const resolved = await resolve(ref);
    if (resolved) ids.push(resolved.account_id);
  }
  // Both given: the creatives of accounts in both.
  return account ? ids.filter((id) => id === account.account_id) : ids;
}

async function assignmentsByCreative(db: Parameters<typeof sql.assignmentsOf>[0], page: readonly CreativeRow[]): Promise<Map<string, AssignmentRow[]>> {
  const byKey = new Map<string, AssignmentRow[]>();
  for (const accountId of new Set(page.map((c) => c.account_id))) {
    const rows = await sql.assignmentsOf(db, accountId, page.filter((c) => c.account_id === accountId).map((c) => c.creative_id));
    for (const row of rows) byKey.set(`${row.account_id} ${row.creative_id}`, [...(byKey.get(`${row.account_id} ${row.creative_id}`) ?? []), row]);
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
