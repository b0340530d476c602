import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  listAccountsTask,
  requireActiveAccount,
  salesAccountResolver,
  syncAccountsTask,
  type AccountModel,
} from '../../../../src/agents/sales/accounts/index.ts';
import type { Tenant } from '../../../../src/agents/runtime/index.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { mcpClient } from '../../../support/agents.ts';
import { createApiKeyFor, seedOrganization } from '../../../support/identity.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';

/** A credential the tenant accepts that acts for no organization, as a public test token does. */
export const publicToken = 'public-test-credential-of-the-sales-agent';

/**
 * The accounts tasks as a sales agent serves them (implicit accounts unless the model says
 * otherwise), with probes: `which_account` answers the account the request resolved to for a task
 * that reads, `act_on_account` for one that acts (mutating), `inform_with_account` for one the
 * account only informs; `spend` refuses it unless it may buy.
 */
export function salesTenant(model: AccountModel = { requireOperatorAuth: false }, path = '/sales'): Tenant {
  const account = { type: 'object', description: 'core/account-ref.json.' };
  return {
    name: path.slice(1),
    path,
    protocols: ['media_buy'],
    description: 'Sales agent accounts under test.',
    resolveAccount: salesAccountResolver(model),
    credentials: [{ token: publicToken, name: 'public' }],
    tasks: [
      syncAccountsTask(),
      listAccountsTask(),
      {
        name: 'which_account',
        description: 'Answers the account the request resolved to.',
        input: { type: 'object', properties: { account } },
        mutates: false,
        handler: async (_args, ctx) => ({ account: ctx.account ?? null }),
      },
      {
        name: 'act_on_account',
        description: 'Answers the account the request resolved to, for a task that acts on it.',
        input: { type: 'object', properties: { account }, required: ['account'] },
        mutates: true,
        handler: async (_args, ctx) => ({ account: ctx.account ?? null }),
      },
      {
        name: 'inform_with_account',
        description: 'Answers the account the request resolved to, for a task it only informs.',
        input: { type: 'object', properties: { account } },
        mutates: false,
        accountUse: 'informs',
        handler: async (_args, ctx) => ({ account: ctx.account ?? null }),
      },
      {
        name: 'spend',
        description: 'Succeeds only on an account that may buy.',
        input: { type: 'object', properties: { account }, required: ['account'] },
        mutates: false,
        handler: async (_args, ctx) => ({ spent_on: requireActiveAccount(ctx.account).account_id }),
      },
    ],
  };
}

/** An MCP caller of the sales tenant; every answer of the accounts tasks is checked against its published schema. */
export interface Caller {
  client: Client;
  /** The payload of a successful call; fails the test on an error. */
  call(name: string, args?: Record<string, unknown>): Promise<Json>;
  /** The error object of a call that must fail; fails the test on a success. */
  fail(name: string, args?: Record<string, unknown>): Promise<Json>;
  sync(accounts: Json[], extra?: Record<string, unknown>): Promise<Json>;
  list(args?: Record<string, unknown>): Promise<Json>;
}

const published: Record<string, string> = {
  sync_accounts: '/schemas/3.0.6/account/sync-accounts-response.json',
  list_accounts: '/schemas/3.0.6/account/list-accounts-response.json',
};

export async function callerWith(
  server: TestServer,
  headers: Record<string, string>,
  path = '/sales',
): Promise<Caller> {
  const client = await mcpClient(server.url, path, headers);
  const raw = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as Json;
    return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
  };
  const caller: Caller = {
    client,
    async call(name, args = {}) {
      const { isError, payload } = await raw(name, args);
      assert.equal(isError, false, `${name} failed: ${JSON.stringify(payload)}`);
      const schema = published[name];
      if (schema) assert.deepEqual(validateSchema(schema, payload).errors, [], `${name} answers its published schema`);
      return payload;
    },
    async fail(name, args = {}) {
      const { isError, payload } = await raw(name, args);
      assert.equal(isError, true, `${name} should have failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
      return payload;
    },
    sync: (accounts, extra = {}) => caller.call('sync_accounts', { idempotency_key: randomUUID(), accounts, ...extra }),
    list: (args = {}) => caller.call('list_accounts', args),
  };
  return caller;
}

/** A caller with a fresh API key of a fresh organization (of the tenant at `path`). */
export async function organizationCaller(server: TestServer, path = '/sales'): Promise<Caller> {
  const org = await seedOrganization(server.db);
  return callerWith(server, { authorization: `Bearer ${await createApiKeyFor(server.db, org.slug)}` }, path);
}

/** A fresh organization with two callers, each with a key of its own. */
export async function twoKeysOfOneOrganization(server: TestServer): Promise<[Caller, Caller]> {
  const org = await seedOrganization(server.db);
  const key = async () => callerWith(server, { authorization: `Bearer ${await createApiKeyFor(server.db, org.slug)}` });
  return [await key(), await key()];
}

/** An account entry of a sync_accounts request. */
export function entry(domain: string, operator: string, more: Json = {}): Json {
  return {
    brand: { domain, ...(more.brand_id ? { brand_id: more.brand_id } : {}) },
    operator,
    billing: 'operator',
    ...withoutBrandId(more),
  };
}

function withoutBrandId({ brand_id: _brandId, ...rest }: Json): Json {
  return rest;
}
