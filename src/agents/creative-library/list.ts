import type { FormatId } from '../formats/index.ts';
import {
  cursorPosition,
  defaultPageSize,
  pageCursor,
  pageRequestInput,
  publishedSchemas,
  textInput,
  type AgentTask,
  type JsonSchema,
  type TaskArguments,
  type TaskContext,
} from '../runtime/index.ts';
import type { CreativeStatus, LibraryCreative } from './creative.ts';
import { creativeSortFields, type LibraryFilters, type Sort } from './sql.ts';

/** core/creative-filters.json as a request sends it. */
export interface CreativeFilters {
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

/** list_creatives' input as both libraries advertise it; the published request schema is checked besides. */
export const listCreativesInput: JsonSchema = {
  type: 'object',
  properties: {
    account: { type: 'object', description: 'core/account-ref.json: only this account’s creatives.' },
    filters: {
      type: 'object',
      description: 'core/creative-filters.json',
      properties: { name_contains: textInput('name', 'Creatives whose name contains this text (case-insensitive)') },
    },
    sort: {
      type: 'object',
      properties: {
        field: { type: 'string', enum: [...creativeSortFields] },
        direction: { type: 'string', enum: ['asc', 'desc'] },
      },
    },
    pagination: pageRequestInput,
    include_assignments: { type: 'boolean' },
    include_snapshot: { type: 'boolean' },
    fields: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: true,
};

/** A list_creatives request as a library queries it. */
export interface ListRequest {
  /** The filters as sent, for the agent's own (accounts, assignments) and for `filters_applied`. */
  filters: CreativeFilters;
  /** The library-wide filters, for `libraryConditions`. */
  library: LibraryFilters;
  /** created_date descending unless asked otherwise (the schema's defaults). */
  sort: Sort;
  offset: number;
  size: number;
}

const cursorTag = 'c';

/**
 * Reads a list_creatives request: filters (format ids compared by `formatKeyOf`, the library's
 * key of its format_key column), sort and the page its cursor points at. Nothing in a library has
 * served, has variables or belongs to a concept, so those filters match accordingly.
 */
export function readListRequest(
  args: Record<string, unknown>,
  formatKeyOf: (formatId: FormatId) => string,
): ListRequest {
  const f = (args['filters'] ?? {}) as CreativeFilters;
  const asked = (args['sort'] ?? {}) as Partial<Sort>;
  const pagination = (args['pagination'] ?? {}) as { max_results?: number; cursor?: string };
  return {
    filters: f,
    library: {
      statuses: f.statuses,
      tagsAll: f.tags,
      tagsAny: f.tags_any,
      nameContains: f.name_contains,
      creativeIds: f.creative_ids,
      formatKeys: f.format_ids?.map(formatKeyOf),
      createdAfter: f.created_after,
      createdBefore: f.created_before,
      updatedAfter: f.updated_after,
      updatedBefore: f.updated_before,
      none: f.has_served === true || f.has_variables === true || f.concept_ids !== undefined,
    },
    sort: { field: asked.field ?? 'created_date', direction: asked.direction ?? 'desc' },
    offset: pagination.cursor === undefined ? 0 : cursorPosition(cursorTag, pagination.cursor),
    size: pagination.max_results ?? defaultPageSize,
  };
}

/** Whether the request wants package assignments answered (the schema's default: yes). */
export const wantsAssignments = (args: Record<string, unknown>) => args['include_assignments'] !== false;

/**
 * One creative as list_creatives answers it: the required fields always; with `fields`, only the
 * optional ones asked for (assets and other fields only without `fields`); `assignments` (the
 * library's view of them) when the request wants them.
 */
export function listedCreative(
  c: LibraryCreative,
  args: Record<string, unknown>,
  assignments: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const fields = args['fields'] as string[] | undefined;
  const wanted = (field: string) => !fields || fields.includes(field);
  return {
    creative_id: c.creative_id,
    name: c.name,
    format_id: c.format_id,
    status: c.status,
    created_date: c.created_at.toISOString(),
    updated_date: c.updated_at.toISOString(),
    ...(fields ? {} : { ...c.details, assets: c.assets }),
    ...(wanted('tags') ? { tags: c.tags } : {}),
    ...(assignments && wantsAssignments(args) && wanted('assignments') ? { assignments } : {}),
    ...(args['include_snapshot'] === true ? { snapshot_unavailable_reason: 'SNAPSHOT_UNSUPPORTED' } : {}),
  };
}

/** The page's rows of those a query fetched with a limit of the page's size + 1, and whether more follow. */
export function pageOf<T>(rows: readonly T[], request: ListRequest): { page: T[]; hasMore: boolean } {
  return { page: rows.slice(0, request.size), hasMore: rows.length > request.size };
}

/** The answer (list-creatives-response.json) with the page's creatives, shaped by `listedCreative`. */
export function listAnswer(
  request: ListRequest,
  creatives: readonly Record<string, unknown>[],
  hasMore: boolean,
  total: number,
  more: { filtersApplied: string[]; sandbox: boolean },
) {
  return {
    query_summary: {
      total_matching: total,
      returned: creatives.length,
      filters_applied: more.filtersApplied,
      sort_applied: request.sort,
    },
    pagination: {
      has_more: hasMore,
      ...(hasMore ? { cursor: pageCursor(cursorTag, request.offset + request.size) } : {}),
      total_count: total,
    },
    creatives,
    sandbox: more.sandbox,
  };
}

/** Where a library's list comes from: its rows and count for the request, each listed creative's assignments, and what the answer says besides. */
export interface ListSource<Row extends LibraryCreative> {
  /** The rows of the request's filters and sort from `offset`, at most `limit`. */
  rows(offset: number, limit: number): Promise<Row[]>;
  count(): Promise<number>;
  /** Each creative's assignments as the answer gives them (fetched once for the page), or undefined for none. */
  assignments(page: readonly Row[]): Promise<(creative: Row) => Record<string, unknown> | undefined>;
  filtersApplied: string[];
  sandbox: boolean;
}

/** list_creatives' answer over one library: the page the request's cursor points at, the total, and each creative as `listedCreative` shapes it. */
export async function listCreatives<Row extends LibraryCreative>(
  args: Record<string, unknown>,
  request: ListRequest,
  source: ListSource<Row>,
) {
  const { page, hasMore } = pageOf(await source.rows(request.offset, request.size + 1), request);
  const total = await source.count();
  const assignmentsOf = await source.assignments(page);
  const creatives = page.map((c) => listedCreative(c, args, assignmentsOf(c)));
  return listAnswer(request, creatives, hasMore, total, {
    filtersApplied: source.filtersApplied,
    sandbox: source.sandbox,
  });
}

/**
 * `list_creatives` (creative/list-creatives-request.json) over one library, as both agents serve it:
 * the request read with the library's format key, answered over the source the agent makes of it
 * (its own filters, assignments and sandbox).
 */
export function listCreativesTask<Row extends LibraryCreative>(
  description: string,
  formatKeyOf: (formatId: FormatId) => string,
  sourceOf: (request: ListRequest, args: TaskArguments, ctx: TaskContext) => Promise<ListSource<Row>>,
): AgentTask {
  return {
    name: 'list_creatives',
    description,
    input: listCreativesInput,
    ...publishedSchemas('creative/list-creatives'),
    mutates: false,
    async handler(args, ctx) {
      const request = readListRequest(args, formatKeyOf);
      return listCreatives(args, request, await sourceOf(request, args, ctx));
    },
  };
}
