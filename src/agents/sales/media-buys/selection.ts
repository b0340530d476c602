import { AgentError } from '../../../protocol/errors.ts';
import type { Queryable } from '../../../db/database.ts';
import { errorObject, type ErrorObject, type ResolvedAccount, type TaskArguments } from '../../runtime/index.ts';
import * as sql from './sql.ts';
import type { MediaBuyStatus } from './state.ts';

/**
 * The buys a request's `buySelection` selects under its account: the ids it asks for, in any
 * status unless `status_filter` names some; without ids, the active buys unless it names others.
 */
export function selectedBuys(args: TaskArguments, account: ResolvedAccount | undefined): sql.ListFilters {
  const ids = args['media_buy_ids'] as string[] | undefined;
  const asked = args['status_filter'] as MediaBuyStatus | MediaBuyStatus[] | undefined;
  const statuses =
    asked === undefined ? (ids ? undefined : ['active' as const]) : Array.isArray(asked) ? asked : [asked];
  return { accountId: account?.account_id, ids, statuses };
}

/**
 * A MEDIA_BUY_NOT_FOUND error object for each of the asked ids a selection did not answer that
 * the caller has no buy of under its account: an id only filtered out by status is not missing.
 */
export async function missingBuys(
  db: Queryable,
  owner: string,
  selection: sql.ListFilters,
  unanswered: readonly string[],
  account: ResolvedAccount | undefined,
): Promise<ErrorObject[]> {
  if (unanswered.length === 0) return [];
  const known = await sql
    .buyList(db, owner, { ...selection, ids: unanswered, statuses: undefined })
    .rowsAfter(0, unanswered.length);
  return unanswered
    .filter((id) => !known.some((b) => b.media_buy_id === id))
    .map((id) =>
      errorObject(
        new AgentError(
          'MEDIA_BUY_NOT_FOUND',
          `You have no media buy ${id}${account ? ` on account ${account.account_id}` : ''}.`,
          { field: 'media_buy_ids' },
        ),
      ),
    );
}
