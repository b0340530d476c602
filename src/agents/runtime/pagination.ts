import { AgentError } from '../../protocol/errors.ts';

/** core/pagination-request.json. */
export interface PageRequest {
  max_results?: number;
  cursor?: string;
}

/** core/pagination-response.json. */
export interface PageInfo {
  has_more: boolean;
  cursor?: string;
  total_count: number;
}

/** core/pagination-request.json, summarized for the tasks' advertised input schemas. */
export const pageRequestInput = {
  type: 'object',
  properties: {
    max_results: { type: 'integer', minimum: 1, maximum: 100, description: 'Page size; 50 when absent.' },
    cursor: { type: 'string', description: 'The previous page’s cursor.' },
  },
} as const;

/** The page size when the caller names none. */
export const defaultPageSize = 50;

/**
 * The larger pages of resolved lists and artifacts (get_property_list, get_collection_list,
 * get_media_buy_artifacts): up to 10,000 items, 1,000 unless asked, as their requests publish.
 */
export const largePages = { max: 10_000, default: 1000 } as const;

export const largePageRequestInput = {
  type: 'object',
  properties: {
    max_results: { type: 'integer', minimum: 1, maximum: largePages.max, description: 'Page size; 1,000 when absent.' },
    cursor: { type: 'string', description: 'The previous page’s cursor.' },
  },
} as const;

/** A large page (`largePages`) of a list computed in full. */
export function paginateLarge<T>(items: readonly T[], request: PageRequest | undefined) {
  return paginate(items, { ...request, max_results: request?.max_results ?? largePages.default });
}

/** Where the page a request asks for starts in an offset-paged list (`paginate`'s cursors). */
export function pageStart(request: PageRequest | undefined): number {
  return request?.cursor === undefined ? 0 : cursorPosition('o', request.cursor);
}

/**
 * One page of a list a task computed (a catalog, a format list): the cursor is the position after
 * the page, opaque to the caller. `items` may hold only the list's first items, as far as the page
 * ends, when `total` says how many it has in all. A cursor that is not one of ours is the caller's
 * mistake, answered as INVALID_REQUEST naming it.
 */
export function paginate<T>(
  items: readonly T[],
  request: PageRequest | undefined,
  total = items.length,
): { page: T[]; pagination: PageInfo } {
  const size = request?.max_results ?? defaultPageSize;
  const start = pageStart(request);
  const page = items.slice(start, start + size);
  const next = start + page.length;
  const has_more = next < total;
  return {
    page,
    pagination: { has_more, ...(has_more ? { cursor: pageCursor('o', next) } : {}), total_count: total },
  };
}

/** How a keyset-paged list is read: its rows after a `seq` (at most `limit`), and how many it holds in all. */
export interface KeysetReader<T> {
  rowsAfter(after: number, limit: number): Promise<T[]>;
  count(): Promise<number>;
}

/**
 * A page of a list the database keeps in order (`seq`): the rows after the one the cursor names
 * (from the first for no cursor), one more read than the page holds to learn whether another
 * follows; its pagination (the cursor names its last row) and whether it holds the whole list.
 */
export async function keysetList<T extends { seq: number }>(
  tag: string,
  request: PageRequest | undefined,
  read: KeysetReader<T>,
): Promise<{ page: T[]; pagination: PageInfo; whole: boolean }> {
  const after = request?.cursor === undefined ? 0 : cursorPosition(tag, request.cursor);
  const size = request?.max_results ?? defaultPageSize;
  const rows = await read.rowsAfter(after, size + 1);
  const page = rows.slice(0, size);
  const has_more = rows.length > size;
  return {
    page,
    pagination: {
      has_more,
      ...(has_more ? { cursor: pageCursor(tag, page.at(-1)!.seq) } : {}),
      total_count: await read.count(),
    },
    whole: after === 0 && !has_more,
  };
}

/**
 * A cursor: a position (an offset, or the sequence number of the last row shown for keyset
 * pages) tagged with which list it belongs to, so one list's cursor is refused by another.
 */
export function pageCursor(tag: string, position: number): string {
  return Buffer.from(`${tag}:${position}`).toString('base64url');
}

/** The position a cursor from `pageCursor(tag, …)` holds; any other string is INVALID_REQUEST naming the field. */
export function cursorPosition(tag: string, cursor: string): number {
  const match = /^([a-z]+):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (match?.[1] !== tag) {
    throw new AgentError(
      'INVALID_REQUEST',
      'pagination.cursor is not a cursor this agent gave; pass the previous page’s cursor unchanged.',
      { field: 'pagination.cursor' },
    );
  }
  return Number(match[2]);
}
