import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import {
  parseSignalsCatalog,
  signalsAgent,
  type PlatformSeat,
  type SignalsCatalog,
} from '../../../src/agents/signals/index.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import type { ManualClock } from '../../support/clock.ts';
import type { TestEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import type { TestReceiver } from '../../support/webhooks.ts';

/** The configured credential whose principal the catalog knows as `public-test`. */
export const publicToken = 'signals-test-public-credential';
/** Minutes every platform activation takes in these tests. */
export const activationMinutes = 30;

/**
 * Four marketplace signals from two providers, a custom signal for `acme` and one for
 * `public-test`, and a signal `acme` owns. Platforms: alpha-dsp carries runners live for every
 * buyer (a segment id) and pets not live; beta-dsp carries everything but coffee, none live;
 * gamma-ctv carries coffee (not live) and EV intenders (live). Every signal has the keyword
 * "zephyr", so that spec finds them all.
 */
export const catalogYaml = `
signals:
  - signal_agent_segment_id: agr_runners
    signal_id: {source: catalog, data_provider_domain: audiencegraph.example, id: runners}
    name: Running enthusiasts
    description: People who run several times a week, from fitness app panels.
    value_type: binary
    signal_type: marketplace
    data_provider: AudienceGraph
    coverage_percentage: 12
    pricing_options:
      - {pricing_option_id: agr_runners_cpm, model: cpm, cpm: 2.5, currency: USD}
    category: interests
    taxonomy: [interests, sports, running]
    keywords: [runners, jogging, marathon, zephyr]
    countries: [US, CA]
    platforms:
      - {platform: alpha-dsp, segment_id: alpha-1001, activation_minutes: 0}
      - {platform: beta-dsp, activation_minutes: 60}
  - signal_agent_segment_id: agr_ev_intenders
    signal_id: {source: catalog, data_provider_domain: audiencegraph.example, id: ev_intenders}
    name: Electric vehicle intenders
    description: People shopping for an electric car in the next six months.
    value_type: binary
    signal_type: marketplace
    data_provider: AudienceGraph
    coverage_percentage: 3.5
    pricing_options:
      - {pricing_option_id: agr_ev_intenders_cpm, model: cpm, cpm: 4, currency: USD}
    category: in_market
    taxonomy: [automotive, in-market, electric vehicles]
    keywords: [ev, electric car, zephyr]
    countries: [US, DE]
    platforms:
      - {platform: beta-dsp, activation_minutes: 120}
      - {platform: gamma-ctv, segment_id: gamma-2002, activation_minutes: 0}
  - signal_agent_segment_id: lum_coffee
    signal_id: {source: catalog, data_provider_domain: lumendata.example, id: coffee}
    name: Coffee lovers
    description: Heavy buyers of specialty coffee, from retail loyalty data.
    value_type: binary
    signal_type: marketplace
    data_provider: Lumen Data
    coverage_percentage: 20
    pricing_options:
      - {pricing_option_id: lum_coffee_cpm, model: cpm, cpm: 1.5, currency: USD}
      - {pricing_option_id: lum_coffee_pom, model: percent_of_media, percent: 12, max_cpm: 2, currency: USD}
    category: interests
    taxonomy: [interests, food and drink, coffee]
    keywords: [coffee, espresso, cafe, zephyr]
    countries: [GB, DE]
    platforms:
      - {platform: gamma-ctv, activation_minutes: 60}
  - signal_agent_segment_id: lum_pets
    signal_id: {source: catalog, data_provider_domain: lumendata.example, id: pets}
    name: Pet owners
    description: Households with a dog or a cat, from retail loyalty data.
    value_type: binary
    signal_type: marketplace
    data_provider: Lumen Data
    coverage_percentage: 8
    pricing_options:
      - {pricing_option_id: lum_pets_cpm, model: cpm, cpm: 3, currency: USD}
      - {pricing_option_id: lum_pets_pom, model: percent_of_media, percent: 20, max_cpm: 4, currency: USD}
    category: interests
    taxonomy: [interests, pets]
    keywords: [pets, dog owners, cat owners, zephyr]
    countries: [US, GB]
    platforms:
      - {platform: alpha-dsp, activation_minutes: 60}
      - {platform: beta-dsp, activation_minutes: 60}
  - signal_agent_segment_id: cst_acme_lookalikes
    signal_id: {source: agent, agent_url: /signals/mcp, id: acme_lookalikes}
    name: "Acme: buyer lookalikes"
    description: Built for Acme, lookalikes of its past buyers.
    value_type: binary
    signal_type: custom
    data_provider: Meridian (custom models)
    coverage_percentage: 1.2
    pricing_options:
      - {pricing_option_id: cst_acme_lookalikes_cpm, model: cpm, cpm: 5, currency: USD}
    category: behaviours
    taxonomy: [custom, lookalike]
    keywords: [lookalike, buyers, zephyr]
    countries: [US]
    platforms:
      - {platform: beta-dsp, activation_minutes: 240}
    principals: [acme]
  - signal_agent_segment_id: cst_public_weekend
    signal_id: {source: agent, agent_url: /signals/mcp, id: public_weekend}
    name: Weekend getaway planners (custom)
    description: Built for the public test account, people planning a weekend trip.
    value_type: binary
    signal_type: custom
    data_provider: Meridian (custom models)
    coverage_percentage: 2
    pricing_options:
      - {pricing_option_id: cst_public_weekend_cpm, model: cpm, cpm: 4.5, currency: USD}
    category: in_market
    taxonomy: [travel, weekend trips]
    keywords: [weekend trip, getaway, zephyr]
    countries: [US, GB]
    platforms:
      - {platform: beta-dsp, activation_minutes: 240}
    principals: [public-test]
  - signal_agent_segment_id: own_acme_crm
    signal_id: {source: agent, agent_url: /signals/mcp, id: acme_crm}
    name: "Acme: CRM customers"
    description: Acme's own customers, from its CRM.
    value_type: binary
    signal_type: owned
    data_provider: Acme (first-party)
    coverage_percentage: 0.5
    pricing_options:
      - {pricing_option_id: own_acme_crm_cpm, model: cpm, cpm: 0, currency: USD}
    category: behaviours
    taxonomy: [first party, crm]
    keywords: [crm, customers, zephyr]
    countries: [US]
    platforms:
      - {platform: beta-dsp, activation_minutes: 60}
    owner: acme
`;

/** Buyers' seats: acme's on alpha-dsp and beta-dsp, public-test's on beta-dsp. */
export const seats: readonly PlatformSeat[] = [
  { platform: 'alpha-dsp', account: 'acme-seat', principals: ['acme'] },
  { platform: 'beta-dsp', account: 'acme-seat', principals: ['acme'] },
  { platform: 'beta-dsp', account: 'public-seat', principals: ['public-test'] },
];

export interface StartOptions {
  clock: ManualClock;
  /** Where webhooks may go (started here and told to trust the server). */
  receiver?: TestReceiver;
  extend?: (app: FastifyInstance) => void;
  /** Another catalog than the test one (the demo catalog, with the platforms buyers name). */
  catalog?: SignalsCatalog;
  /** Environment overrides of the server's configuration (its AP_ROLE, say). */
  env?: Record<string, string>;
}

/**
 * The signals agent alone, at /signals, over the test catalog: on a clock the test moves, with its
 * activation pass left to the test to wake (its own interval is an hour), and its webhooks
 * allowed to reach `receiver` on loopback.
 */
export async function startSignals(
  engine: TestEngine,
  {
    clock,
    receiver,
    extend,
    env,
    catalog = parseSignalsCatalog(catalogYaml, 'signals-test-catalog.yaml'),
  }: StartOptions,
): Promise<TestServer> {
  if (receiver && !receiver.url) await receiver.listen();
  const tenant = signalsAgent({
    catalog,
    // Asked when answering, by then the server's.
    base: () => server.url,
    credentials: [{ token: publicToken, name: 'public-test' }],
    seats,
    activationMinutes,
    activationPollMs: 3_600_000,
  });
  const fetcher = receiver ? { fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }) } : {};
  const server = await startTestServer(engine, {
    deps: { tenants: [tenant], clock, ...fetcher },
    ...(extend ? { extend } : {}),
    ...(env ? { env } : {}),
  });
  if (receiver) receiver.trust(server.url, clock);
  return server;
}

/** Runs the activation pass once, from now: what falls due by the clock goes live. */
export async function runActivationPass(server: TestServer): Promise<void> {
  const pass = server.app.agentPasses!.get('signals:activations')!;
  const done = pass.nextPass();
  pass.wake();
  await done;
}

const published: Record<string, string> = {
  get_signals: '/schemas/3.0.6/signals/get-signals-response.json',
  activate_signal: '/schemas/3.0.6/signals/activate-signal-response.json',
  get_task: '/schemas/3.0.6/core/tasks-get-response.json',
  cancel_task: '/schemas/3.0.6/core/tasks-get-response.json',
  sync_accounts: '/schemas/3.0.6/account/sync-accounts-response.json',
  list_accounts: '/schemas/3.0.6/account/list-accounts-response.json',
};

/** A caller of the signals agent over MCP (the official SDK client); every answer is checked against its published schema. */
export interface Caller {
  client: Client;
  /** The name the catalog knows it by. */
  name: string;
  call(task: string, args: Record<string, unknown>): Promise<Json>;
  /** The error object of a call that must fail. */
  fail(task: string, args: Record<string, unknown>): Promise<Json>;
  /** get_signals' signals, for the args given. */
  signals(args: Record<string, unknown>): Promise<Json[]>;
  /** activate_signal with a fresh idempotency key. */
  activate(args: Record<string, unknown>): Promise<Json>;
}

export async function caller(server: TestServer, token: string, name: string): Promise<Caller> {
  const client = await mcpClient(server.url, '/signals', { authorization: `Bearer ${token}` });
  const raw = async (task: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: task, arguments: args })) as Json;
    return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
  };
  const call = async (task: string, args: Record<string, unknown>) => {
    const { isError, payload } = await raw(task, args);
    assert.equal(isError, false, `${task} failed: ${JSON.stringify(payload)}`);
    const schema = published[task];
    if (schema) assert.deepEqual(validateSchema(schema, payload).errors, [], `${task} answers its published schema`);
    return payload;
  };
  return {
    client,
    name,
    call,
    async fail(task, args) {
      const { isError, payload } = await raw(task, args);
      assert.equal(isError, true, `${task} should have failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
      // As the activation's error branch carries it (the plain-HTTP envelope's errors[]).
      if (task === 'activate_signal')
        assert.deepEqual(validateSchema(published[task]!, { errors: [payload] }).errors, []);
      return payload;
    },
    signals: async (args) => (await call('get_signals', args)).signals as Json[],
    activate: (args) => call('activate_signal', { idempotency_key: randomUUID(), ...args }),
  };
}

/**
 * The callers a suite makes, each closed in the suite's `after`: the public credential's, acme's
 * (an organization with the slug the catalog names), and fresh organizations' (nothing custom or
 * owned is theirs, and nothing they activate is seen by another test).
 */
export function callerPool(server: () => TestServer) {
  const made: Caller[] = [];
  const keep = (c: Caller) => (made.push(c), c);
  return {
    publicTest: async () => keep(await caller(server(), publicToken, 'public-test')),
    organization: async (slug?: string) => {
      const org = await seedOrganization(server().db, slug ? { slug } : {});
      return keep(await caller(server(), await createApiKeyFor(server().db, org.slug), org.slug));
    },
    async closeAll() {
      for (const c of made) await c.client.close();
    },
  };
}

export const ids = (signals: readonly Json[]) => signals.map((s) => s.signal_agent_segment_id as string);
export const sorted = (list: readonly string[]) => [...list].sort();
