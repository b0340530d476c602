import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it, type TestContext } from 'node:test';
import { markStale } from '../../../src/registry/graph/index.ts';
import { publishAdagents, publishBrandJson } from '../../support/authorization-world.ts';
import type { ServingAp } from '../../support/cli.ts';
import type { Json } from '../../support/http.ts';
import { openSharedSchema, type SharedSchema } from '../../support/shared-schema.ts';

const publisher = 'twoinstances.example';
const agent = 'https://sales.twoinstances-operator.example/mcp';
const withGrant = (granted: boolean) => ({
  properties: [
    {
      property_id: 'site',
      property_type: 'website',
      name: 'Two Instances',
      identifiers: [{ type: 'domain', value: publisher }],
    },
  ],
  authorized_agents: [
    {
      url: 'https://other.example/mcp',
      authorized_for: 'Remnant',
      authorization_type: 'property_ids',
      property_ids: ['site'],
      delegation_type: 'ad_network',
    },
    ...(granted
      ? [
          {
            url: agent,
            authorized_for: 'Display',
            authorization_type: 'property_ids',
            property_ids: ['site'],
            delegation_type: 'delegated',
          },
        ]
      : []),
  ],
});
const operatorBrand = {
  house: {
    domain: 'twoinstances-operator.example',
    name: 'Operator',
    agents: [{ type: 'sales', url: agent, id: 'sales' }],
  },
  brands: [
    {
      id: 'operator',
      names: [{ en: 'Operator' }],
      keller_type: 'master',
      properties: [{ type: 'website', identifier: publisher, relationship: 'delegated' }],
    },
  ],
};

const checkPath = `/api/registry/validate/property-authorization?${new URLSearchParams({ agent_url: agent, identifier_type: 'domain', identifier_value: publisher, delegation_type: 'delegated' })}`;

async function verdict(instance: ServingAp): Promise<string> {
  const res = await fetch(`${instance.url}${checkPath}`);
  const body = (await res.json()) as Json;
  return res.status === 200
    ? `${body['result'].status}/${body['result'].violation?.code ?? '-'}`
    : `HTTP ${res.status}`;
}

/** Asks back to back until the instance answers `expected`; the milliseconds since `start`. */
async function untilAnswers(instance: ServingAp, expected: string, start: number): Promise<number> {
  for (let answer = await verdict(instance); answer !== expected; answer = await verdict(instance)) {
    // Past the second only to tell how late it was.
    if (performance.now() - start > 10_000)
      assert.fail(`${instance.url} still answers ${answer}, not ${expected}, after 10 s`);
  }
  return performance.now() - start;
}

/** Polls another process until it answers 200 (it migrates and loads its index first). */
async function ready(instance: ServingAp): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await fetch(`${instance.url}/readyz`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    assert.ok(Date.now() < deadline, `${instance.url} never became ready`);
    await delay(50);
  }
}

/**
 * Two `ap serve` processes on one PostgreSQL schema, each with its own in-memory index: a change
 * committed by anyone (here the test's own connection, as the crawler of a third process would)
 * reaches both through LISTEN/NOTIFY, and each answers the change within a second of the commit.
 */
describe('[postgres] authorization checks on two instances sharing one database', () => {
  let shared: SharedSchema;
  let instances: ServingAp[];

  before(async () => {
    shared = await openSharedSchema();
    instances = await Promise.all([shared.serve(), shared.serve()]);
    await Promise.all(instances.map(ready));
    await publishBrandJson(shared.db, 'twoinstances-operator.example', operatorBrand);
    await publishAdagents(shared.db, publisher, withGrant(false));
    await Promise.all(
      instances.map((instance) => untilAnswers(instance, 'unauthorized/agent_not_authorized', performance.now())),
    );
  });
  after(() => shared?.close());

  /**
   * Commits `change`, then asks each instance back to back until it answers `expected`, timing it
   * from just before the commit (so the time includes the commit itself).
   */
  const visibleOnBoth = async (t: TestContext, before: string, change: () => Promise<void>, expected: string) => {
    for (const instance of instances)
      assert.equal(await verdict(instance), before, `${instance.url} before the change`);
    const start = performance.now();
    await change();
    const latencies = await Promise.all(instances.map((instance) => untilAnswers(instance, expected, start)));
    t.diagnostic(`${expected}: ${latencies.map((ms) => `${ms.toFixed(1)} ms`).join(', ')}`);
    for (const ms of latencies) assert.ok(ms < 1000, `visible after ${ms.toFixed(1)} ms`);
  };

  it('shows a grant on both instances within a second of its commit', (t) =>
    visibleOnBoth(
      t,
      'unauthorized/agent_not_authorized',
      () => publishAdagents(shared.db, publisher, withGrant(true)),
      'authorized/-',
    ));

  it('shows a revoke on both instances within a second of its commit', (t) =>
    visibleOnBoth(
      t,
      'authorized/-',
      () => publishAdagents(shared.db, publisher, withGrant(false)),
      'unauthorized/agent_not_authorized',
    ));

  it('shows a publisher going stale on both instances within a second of its commit', async (t) => {
    await publishAdagents(shared.db, publisher, withGrant(true));
    // Both caught up with the grant again before the failed crawl.
    await Promise.all(instances.map((instance) => untilAnswers(instance, 'authorized/-', performance.now())));
    await visibleOnBoth(
      t,
      'authorized/-',
      async () =>
        void (await shared.db.transaction((tx) =>
          markStale(tx, publisher, 'adagents.json answered HTTP 404', new Date()),
        )),
      'unknown/property_stale',
    );
  });
});
