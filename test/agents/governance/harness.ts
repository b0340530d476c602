import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { governanceAgent } from '../../../src/agents/governance/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import type { ManualClock } from '../../support/clock.ts';
import type { TestEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import type { TestReceiver } from '../../support/webhooks.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { registryPolicyEntries } from '../../../src/registry/policies/index.ts';

/**
 * The governance agent alone, at /governance, on a clock the test moves; with a `receiver`, its
 * webhooks may reach it on loopback and it trusts this server's keys; `pages` are loopback hosts
 * whose pages it may read. Its list-changes pass runs when a test wakes it (`runPass`), not on its own.
 */
export async function startGovernance(
  engine: TestEngine,
  clock: ManualClock,
  receiver?: TestReceiver,
  pages: string[] = [],
): Promise<TestServer> {
  if (receiver) await receiver.listen();
  const allowed = [...(receiver ? [new URL(receiver.url).host] : []), ...pages];
  const fetcher = allowed.length > 0 ? { fetcher: new SafeFetch({ allow: parseAllowList(allowed.join(',')) }) } : {};
  const tenant = governanceAgent({
    base: () => server.url,
    keys: { alg: 'ed25519', secret: undefined, clock, publishWindowSeconds: 300 },
    // The server's own authorization index, as the composition root hands it.
    authorization: () => server.app.authorizationIndex.index,
    listChangesMs: 3_600_000,
    ...fetcher,
    registryPolicies: registryPolicyEntries,
  });
  const server = await startTestServer(engine, { deps: { tenants: [tenant], clock, ...fetcher } });
  if (receiver) receiver.trust(server.url, clock);
  return server;
}

/** Runs one of the agent's passes once, from now, and waits for it to finish. */
export async function runPass(server: TestServer, name: string): Promise<void> {
  const pass = server.app.agentPasses!.get(`governance:${name}`)!;
  const done = pass.nextPass();
  pass.wake();
  await done;
}

const published: Record<string, string> = {
  create_property_list: '/schemas/3.0.6/property/create-property-list-response.json',
  update_property_list: '/schemas/3.0.6/property/update-property-list-response.json',
  get_property_list: '/schemas/3.0.6/property/get-property-list-response.json',
  list_property_lists: '/schemas/3.0.6/property/list-property-lists-response.json',
  delete_property_list: '/schemas/3.0.6/property/delete-property-list-response.json',
  validate_property_delivery: '/schemas/3.0.6/property/validate-property-delivery-response.json',
  create_collection_list: '/schemas/3.0.6/collection/create-collection-list-response.json',
  update_collection_list: '/schemas/3.0.6/collection/update-collection-list-response.json',
  get_collection_list: '/schemas/3.0.6/collection/get-collection-list-response.json',
  list_collection_lists: '/schemas/3.0.6/collection/list-collection-lists-response.json',
  delete_collection_list: '/schemas/3.0.6/collection/delete-collection-list-response.json',
  sync_plans: '/schemas/3.0.6/governance/sync-plans-response.json',
  check_governance: '/schemas/3.0.6/governance/check-governance-response.json',
  report_plan_outcome: '/schemas/3.0.6/governance/report-plan-outcome-response.json',
  get_plan_audit_logs: '/schemas/3.0.6/governance/get-plan-audit-logs-response.json',
  create_content_standards: '/schemas/3.0.6/content-standards/create-content-standards-response.json',
  update_content_standards: '/schemas/3.0.6/content-standards/update-content-standards-response.json',
  get_content_standards: '/schemas/3.0.6/content-standards/get-content-standards-response.json',
  list_content_standards: '/schemas/3.0.6/content-standards/list-content-standards-response.json',
  calibrate_content: '/schemas/3.0.6/content-standards/calibrate-content-response.json',
  validate_content_delivery: '/schemas/3.0.6/content-standards/validate-content-delivery-response.json',
};

/** A caller of the governance agent over MCP (the official SDK client), each answer checked against its published schema. */
export interface Caller {
  client: Client;
  call(task: string, args: Record<string, unknown>): Promise<Json>;
  /** The error object of a call that must fail. */
  fail(task: string, args: Record<string, unknown>): Promise<Json>;
}

export async function organizationCaller(server: TestServer): Promise<Caller> {
  const org = await seedOrganization(server.db);
  const client = await mcpClient(server.url, '/governance', {
    authorization: `Bearer ${await createApiKeyFor(server.db, org.slug)}`,
  });
  const raw = async (task: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: task, arguments: args })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/protocol-envelope.json', envelopeOf(payload)).errors, []);
    return { isError: result.isError === true, payload };
  };
  return {
    client,
    async call(task, args) {
      const { isError, payload } = await raw(task, args);
      assert.equal(isError, false, `${task} failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema(published[task]!, envelopeOf(payload).payload).errors, [], task);
      return payload;
    },
    async fail(task, args) {
      const { isError, payload } = await raw(task, args);
      assert.equal(isError, true, `${task} should have failed: ${JSON.stringify(payload)}`);
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
      return payload;
    },
  };
}

const taskStatuses = new Set(['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected']);

/**
 * A flat answer as core/protocol-envelope.json sees it: the task status beside the payload, or,
 * where the payload's own `status` is a domain status (check_governance's decision), the payload
 * whole and the task completed, as the protocol's client reads it.
 */
function envelopeOf({ status, replayed, ...rest }: Json): { status: string; payload: Json; replayed?: boolean } {
  const flat = typeof status === 'string' && taskStatuses.has(status);
  return {
    status: flat ? (status as string) : 'completed',
    payload: flat ? rest : { status, ...rest },
    ...(replayed === undefined ? {} : { replayed: replayed as boolean }),
  };
}

/** A plan of $100,000 in the US on OLV and display, for Q1 2027, with a fresh id. */
export function plan(overrides: Record<string, unknown> = {}): Json {
  return {
    plan_id: `plan_${randomUUID().slice(0, 8)}`,
    brand: { domain: 'acme.example' },
    objectives: 'Launch the spring range to adults 25-54.',
    budget: { total: 100_000, currency: 'USD', reallocation_threshold: 10_000 },
    flight: { start: '2027-01-01T00:00:00Z', end: '2027-03-31T23:59:59Z' },
    countries: ['US'],
    channels: { allowed: ['olv', 'display'] },
    ...overrides,
  };
}

export const idempotent = (args: Record<string, unknown>) => ({ idempotency_key: randomUUID(), ...args });
