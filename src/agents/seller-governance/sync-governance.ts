import { AgentError } from '../../protocol/errors.ts';
import {
  objectsInput,
  accountRefInput,
  errorObject,
  ownerOf,
  publishedSchemas,
  seal,
  type AgentTask,
  type Tenant,
  type TaskArguments,
} from '../runtime/index.ts';

import * as sql from './sql.ts';

interface SyncGovernanceArgs extends TaskArguments {
  accounts: Array<{
    account: Record<string, unknown>;
    governance_agents: Array<{
      url: string;
      authentication: { schemes: string[]; credentials: string };
      categories?: string[];
    }>;
  }>;
}

/**
 * `sync_governance` (account/sync-governance-request.json): registers, for each account, the
 * governance agents this seller calls before it commits spend on it, replacing those synced before.
 * Each account is resolved as the caller's own (an implicit account named for the first time is
 * declared), so a caller reaches only its accounts; one it cannot reach fails alone. The
 * credentials are kept sealed and never answered.
 */
export function syncGovernanceTask(options: {
  tenant: string;
  secret: string | undefined;
  resolveAccount: NonNullable<Tenant['resolveAccount']>;
}): AgentTask<SyncGovernanceArgs> {
  return {
    name: 'sync_governance',
    description:
      'Register the governance agents this seller must consult before committing spend on each of your accounts (replacing those synced before): accounts[] of {account, governance_agents: [{url (https), authentication: {schemes: ["Bearer"], credentials}, categories?}]}. A buy on a governed account then needs plan_id and the intent governance_context from check_governance.',
    input: {
      type: 'object',
      properties: {
        accounts: objectsInput(
          100,
          {
            account: accountRefInput,
            governance_agents: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'object' } },
          },
          ['account', 'governance_agents'],
        ),
      },
      required: ['accounts'],
      additionalProperties: true,
    },
    ...publishedSchemas('account/sync-governance'),
    mutates: true,
    async handler(args, ctx) {
      const seller = { tenant: options.tenant, owner: ownerOf(ctx.principal) };
      const now = ctx.clock.now();
      const accounts = [];
      for (const entry of args.accounts) {
        try {
          const account = await options.resolveAccount(entry.account, {
            db: ctx.db,
            principal: ctx.principal,
            use: 'acts',
            now,
          });
          if (!account?.account_id)
            throw new AgentError('ACCOUNT_NOT_FOUND', 'No account matches this reference.', { field: 'account' });
          const agents = entry.governance_agents.map((a) => ({
            url: a.url,
            credentials: seal(a.authentication.credentials, options.secret),
            categories: a.categories ?? null,
          }));
          await sql.replaceAgents(ctx.db, seller, account.account_id, agents, now);
          accounts.push({
            account: entry.account,
            status: 'synced',
            governance_agents: entry.governance_agents.map((a) => ({
              url: a.url,
              ...(a.categories ? { categories: a.categories } : {}),
            })),
          });
        } catch (err) {
          if (!(err instanceof AgentError)) throw err;
          accounts.push({ account: entry.account, status: 'failed', errors: [errorObject(err)] });
        }
      }
      return { accounts };
    },
  };
}
