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

const defaultPageSize = 50;

/**
 * One page of a list a task computed in full (a catalog, a format list): the cursor is the
 * position after the page, opaque to the caller. A cursor that is not one of ours is the caller's
 * mistake, answered as INVALID_REQUEST naming it.
 */
export function paginate<T>(items: readonly T[], request: PageRequest | undefined): { page: T[]; pagination: PageInfo } {
  const size = request?.max_results ?? defaultPageSize;
  const start = request?.cursor === undefined ? 0 : offsetOf(request.cursor);
  const page = items.slice(start, start + size);
  const next = start + page.length;
  const has_more = next < items.length;
  return { page, pagination: { has_more, ...(has_more ? { cursor: Buffer.from(`o:${next}`).toString('base64url') } : {}), total_count: items.length } };
}

function offsetOf(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) throw new AgentError('INVALID_REQUEST', 'pagination.cursor is not a cursor this agent gave; pass the previous page’s cursor unchanged.', { field: 'pagination.cursor' });
  return Number(match[1]);
}
