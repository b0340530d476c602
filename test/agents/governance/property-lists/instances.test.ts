import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../../../src/config.ts';
import { markStale } from '../../../../src/registry/graph/index.ts';
import { mcpClient } from '../../../support/agents.ts';
import { publishAdagents } from '../../../support/authorization-world.ts';
import type { ServingAp } from '../../../support/cli.ts';
import type { Json } from '../../../support/http.ts';
import { openSharedSchema, type SharedSchema } from '../../../support/shared-schema.ts';

const publisher = 'listed-twice.example';
const adagents = {
  properties: [
    {
      property_id: 'site',
      property_type: 'website',
      name: 'Listed twice',
      identifiers: [{ type: 'domain', value: publisher }],
    },
  ],
  authorized_agents: [
    {
      url: 'https://sales.listed-twice.example/mcp',
      authorized_for: 'Display',
      authorization_type: 'property_ids',
      property_ids: ['site'],
    },
  ],
};

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
 * Two `ap serve` processes on one PostgreSQL schema, each with its governance agent resolving
 * property lists from its own in-memory index: a list made on one is read on both, and a
 * publisher made stale by a re-crawl (committed by the test's own connection, as a third
 * process's crawler would) leaves it on both within a second.
 */
describe('[postgres] a property list on two instances sharing one database', () => {
  let shared: SharedSchema;
  let instances: ServingAp[];
  const clients: Client[] = [];

  before(async () => {
    shared = await openSharedSchema();
    instances = await Promise.all([shared.serve({ AGENTS: 'true' }), shared.serve({ AGENTS: 'true' })]);
    await Promise.all(instances.map(ready));
    await publishAdagents(shared.db, publisher, adagents);
    for (const instance of instances)
      clients.push(await mcpClient(instance.url, '/governance', { authorization: `Bearer ${publicTestCredential}` }));
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await shared?.close();
  });

  const members = async (client: Client, listId: string): Promise<string[]> => {
    const result = (await client.callTool({ name: 'get_property_list', arguments: { list_id: listId } })) as Json;
    const body = JSON.parse(result.content[0].text as string) as Json;
    assert.notEqual(result.isError, true, JSON.stringify(body));
    return (body.identifiers as Json[]).map((i) => i.value as string);
  };
  /** Asks back to back until the list holds `expected`; the milliseconds since `start`. */
  const until = async (client: Client, listId: string, expected: string[], start: number) => {
    for (
      let found = await members(client, listId);
      found.join() !== expected.join();
      found = await members(client, listId)
    )
      if (performance.now() - start > 10_000)
        assert.fail(`the list still holds ${found.join()}, not ${expected.join()}`);
    return performance.now() - start;
  };

  it('follows a publisher made stale by a re-crawl on both instances within a second', async (t) => {
    const created = (await clients[0]!.callTool({
      name: 'create_property_list',
      arguments: {
        idempotency_key: 'list-on-two-instances-0001',
        name: 'Listed twice',
        base_properties: [{ selection_type: 'identifiers', identifiers: [{ type: 'domain', value: publisher }] }],
      },
    })) as Json;
    const listId = (JSON.parse(created.content[0].text as string) as Json).list.list_id as string;
    await Promise.all(clients.map((client) => until(client, listId, [publisher], performance.now())));
    const start = performance.now();
    await shared.db.transaction((tx) => markStale(tx, publisher, 'adagents.json answered HTTP 404', new Date()));
    const latencies = await Promise.all(clients.map((client) => until(client, listId, [], start)));
    t.diagnostic(`left the list after ${latencies.map((ms) => `${ms.toFixed(1)} ms`).join(', ')}`);
    for (const ms of latencies) assert.ok(ms < 1000, `visible after ${ms.toFixed(1)} ms`);
  });
});
