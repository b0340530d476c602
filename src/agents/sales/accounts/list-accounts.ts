import {
  type AgentTask,
  checkPublishedRequest,
  cursorPosition,
  defaultPageSize,
  pageCursor,
  pageRequestInput,
} from '../../runtime/index.ts';
import { accountStatuses, ownerOf, toAccount, type AccountStatus } from './account.ts';
import * as sql from './sql.ts';

const REQUEST = '/schemas/3.0.6/account/list-accounts-request.json';

/**
 * `list_accounts` (account/list-accounts-request.json): the caller's accounts, in the order they
 * were made, closed ones included unless a status filter says otherwise. The cursor is the position
 * after the page (keyset, so accounts made meanwhile neither repeat nor shift a page).
 */
export function listAccountsTask(): AgentTask {
  return {
    name: 'list_accounts',
    description:
      'List your accounts on this seller, optionally only those of one status or only sandbox (or only production) accounts. Paginated.',
    input: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: [...accountStatuses],
          description: 'Only accounts of this status; all when absent.',
        },
        sandbox: {
          type: 'boolean',
          description: 'true: only sandbox accounts; false: only production ones; all when absent.',
        },
        pagination: pageRequestInput,
      },
      additionalProperties: true,
    },
    output: { $ref: '/schemas/3.0.6/account/list-accounts-response.json' },
    mutates: false,
    async handler(args, ctx) {
      checkPublishedRequest(REQUEST, args);
      const owner = ownerOf(ctx.principal);
      const filters = {
        status: args['status'] as AccountStatus | undefined,
        sandbox: args['sandbox'] as boolean | undefined,
      };
      const pagination = (args['pagination'] ?? {}) as { max_results?: number; cursor?: string };
      const size = pagination.max_results ?? defaultPageSize;
      const after = pagination.cursor === undefined ? 0 : cursorPosition('a', pagination.cursor);
      // One more than the page shows whether another page follows.
      const rows = await sql.accountsAfter(ctx.db, owner, filters, after, size + 1);
      const page = rows.slice(0, size);
      const hasMore = rows.length > size;
      return {
        accounts: page.map(toAccount),
        pagination: {
          has_more: hasMore,
          ...(hasMore ? { cursor: pageCursor('a', page.at(-1)!.seq) } : {}),
          total_count: await sql.countAccounts(ctx.db, owner, filters),
        },
      };
    },
  };
}
