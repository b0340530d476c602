import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { errorObject } from '../../runtime/index.ts';
import { buysAfter, type ListFilters } from './sql.ts';

/**
 * MEDIA_BUY_NOT_FOUND, as errors[] answers it, for each id of `unanswered` (asked ids a selection
 * did not answer) that the caller has no buy of on the filters' account, whoever's it is: an id the
 * filters left out only by its status is the caller's, not missing.
 */
export async function buysNotFound(db: Queryable, owner: string, filters: ListFilters, unanswered: readonly string[]) {
  if (unanswered.length === 0) return [];
  const selection = { ...filters, ids: unanswered, statuses: undefined };
  const known = await buysAfter(db, owner, selection, 0, unanswered.length);
  const account = filters.accountId ? ` on account ${filters.accountId}` : '';
  return unanswered
    .filter((id) => !known.some((b) => b.media_buy_id === id))
    .map((id) =>
      errorObject(
        new AgentError('MEDIA_BUY_NOT_FOUND', `You have no media buy ${id}${account}.`, { field: 'media_buy_ids' }),
      ),
    );
}
