import {
  keysetList,
  pageRequestInput,
  publishedSchemas,
  type AgentTask,
  type PageRequest,
} from '../../runtime/index.ts';
import { accountStatuses, ownerOf, toAccount, type AccountStatus } from './account.ts';
import * as sql from './sql.ts';

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
    ...publishedSchemas('account/list-accounts'),
    mutates: false,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const filters = {
        status: args['status'] as AccountStatus | undefined,
        sandbox: args['sandbox'] as boolean | undefined,
      };
      const { page, pagination } = await keysetList(
        'a',
        args['pagination'] as PageRequest | undefined,
        sql.accountList(ctx.db, owner, filters),
      );
      return { accounts: page.map(toAccount), pagination };
    },
  };
}
