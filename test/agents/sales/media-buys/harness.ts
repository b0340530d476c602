import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../../../src/config.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { mcpClient } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import type { TestEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../../support/identity.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import type { TestReceiver } from '../../../support/webhooks.ts';

/** The test deployment (demo catalog) on a clock the test moves. */
export async function startSales(engine: TestEngine, clock: ManualClock): Promise<TestServer> {
  return startTestServer(engine, { env: { AGENTS: 'true' }, deps: { clock } });
}

/**
 * The test deployment whose webhooks may reach a buyer's `receiver` on loopback (started here,
 * trusting the deployment's signing keys); `extend` as startTestServer's.
 */
export async function startSalesWithReceiver(
  engine: TestEngine,
  clock: ManualClock,
  receiver: TestReceiver,
  extend?: (app: FastifyInstance) => void,
): Promise<TestServer> {
  await receiver.listen();
  const server = await startTestServer(engine, {
    env: { AGENTS: 'true' },
    deps: { clock, fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }) },
    ...(extend ? { extend } : {}),
  });
  receiver.trust(server.url, clock);
  return server;
}

const published: Record<string, string> = {
  create_media_buy: '/schemas/3.0.6/media-buy/create-media-buy-response.json',
  update_media_buy: '/schemas/3.0.6/media-buy/update-media-buy-response.json',
  get_media_buys: '/schemas/3.0.6/media-buy/get-media-buys-response.json',
};

/** A buyer on the sales agent over MCP, with an account of its own (by default named by id); every answer is checked against its published schema. */
export interface Buyer<Account extends object = { account_id: string }> {
  client: Client;
  account: Account;
  /** Its brand's domain. */
  domain: string;
  /** The bearer credential it calls with. */
  token: string;
  call(name: string, args: Record<string, unknown>): Promise<Json>;
  /** The error object of a call that must fail. */
  fail(name: string, args: Record<string, unknown>): Promise<Json>;
  create(more?: Record<string, unknown>): Promise<Json>;
  update(mediaBuyId: string, changes: Record<string, unknown>): Promise<Json>;
  get(args?: Record<string, unknown>): Promise<Json>;
}

/** The public test credential's caller; `org: true` for a caller with an organization's API key instead. */
export async function buyer(
  server: TestServer,
  clock: ManualClock,
  options: { org?: boolean; sandbox?: boolean } = {},
): Promise<Buyer> {
  const token = options.org
    ? await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug)
    : publicTestCredential;
  // Each buyer its own brand, so buys of one test never show in another's.
  const domain = `brand-${randomUUID().slice(0, 8)}.example`;
  const connection = await connect(server, token, domain);
  const synced = await connection.call('sync_accounts', {
    idempotency_key: randomUUID(),
    accounts: [
      { brand: { domain }, operator: domain, billing: 'operator', ...(options.sandbox ? { sandbox: true } : {}) },
    ],
  });
  return {
    ...connection,
    ...accountCalls(connection, clock, { account_id: (synced.accounts as Json[])[0]!.account_id as string }),
  };
}

/** A sandbox account named by natural key (core/account-ref.json), as buyers' tools name it. */
export interface NaturalKey {
  brand: { domain: string };
  operator: string;
  sandbox: true;
}

/**
 * A buyer whose sandbox account is never declared: it names it by natural key from its first call
 * on, which the agent's implicit accounts take as the declaration.
 */
export async function naturalKeyBuyer(
  server: TestServer,
  clock: ManualClock,
  options: { org?: boolean } = {},
): Promise<Buyer<NaturalKey>> {
  const token = options.org
    ? await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug)
    : publicTestCredential;
  const domain = `brand-${randomUUID().slice(0, 8)}.example`;
  const connection = await connect(server, token, domain);
  return {
    ...connection,
    ...accountCalls(connection, clock, { brand: { domain }, operator: `agency-${domain}`, sandbox: true }),
  };
}

/**
 * The same buyer (credential, brand, account) over a new connection to `server`: another instance
 * of the deployment, as after a restart. The caller closes its client.
 */
export async function reconnect(b: Buyer, server: TestServer, clock: ManualClock): Promise<Buyer> {
  const connection = await connect(server, b.token, b.domain);
  return { ...connection, ...accountCalls(connection, clock, b.account) };
}

type Connection = Pick<Buyer, 'client' | 'token' | 'domain' | 'call' | 'fail'>;

async function connect(server: TestServer, token: string, domain: string): Promise<Connection> {
  const client = await mcpClient(server.url, '/sales', { authorization: `Bearer ${token}` });
  const raw = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as Json;
    return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
  };
  return {
    client,
    token,
    domain,
    async call(name, args) {
      const { isError, payload } = await raw(name, args);
      assert.equal(isError, false, `${name} failed: ${JSON.stringify(payload)}`);
      const schema = published[name];
      if (schema) assert.deepEqual(validateSchema(schema, payload).errors, [], `${name} answers its published schema`);
      return payload;
    },
    async fail(name, args) {
      const { isError, payload } = await raw(name, args);
      assert.equal(isError, true, `${name} should have failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
      return payload;
    },
  };
}

/** The calls that name the buyer's account. */
function accountCalls<Account extends object>(
  connection: Connection,
  clock: ManualClock,
  account: Account,
): Pick<Buyer<Account>, 'account' | 'create' | 'update' | 'get'> {
  return {
    account,
    create: (more = {}) => connection.call('create_media_buy', createArgs(clock, account, connection.domain, more)),
    update: (mediaBuyId, changes) =>
      connection.call('update_media_buy', {
        idempotency_key: randomUUID(),
        account,
        media_buy_id: mediaBuyId,
        ...changes,
      }),
    get: (args = {}) => connection.call('get_media_buys', { account, ...args }),
  };
}

/**
 * The buyers a suite makes, each closed once it is done: `add` makes one (with `defaults` when
 * given no options), `closeAll` goes in the suite's `after`.
 */
export function buyerPool(
  server: () => TestServer,
  clock: ManualClock,
  defaults: { org?: boolean; sandbox?: boolean } = {},
) {
  const made: Buyer[] = [];
  return {
    async add(options = defaults): Promise<Buyer> {
      const b = await buyer(server(), clock, options);
      made.push(b);
      return b;
    },
    async closeAll(): Promise<void> {
      for (const b of made) await b.client.close();
    },
  };
}

export const day = 24 * 3600 * 1000;
export const inDays = (clock: ManualClock, days: number) => new Date(clock.now().getTime() + days * day).toISOString();

/** A valid create_media_buy request: a fixed-price guaranteed package and an auction one, from ten days on for a month. */
export function createArgs(
  clock: ManualClock,
  account: object,
  domain: string,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    idempotency_key: randomUUID(),
    account,
    brand: { domain },
    start_time: inDays(clock, 10),
    end_time: inDays(clock, 40),
    packages: [
      { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 },
      { product_id: 'dh_news_display_auction', pricing_option_id: 'cpm_auction', budget: 1000, bid_price: 5 },
    ],
    ...more,
  };
}
