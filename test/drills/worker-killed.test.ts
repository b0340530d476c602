import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { validateSchema } from '../../src/protocol/schemas.ts';
import { mcpClient } from '../support/agents.ts';
import { untilLogged, untilReady, type ServingAp } from '../support/cli.ts';
import type { Json } from '../support/http.ts';
import { startFleet, type Fleet } from '../support/publisher-fleet.ts';
import { adminKey, asAdmin } from '../support/server.ts';
import { openSharedSchema, type SharedSchema } from '../support/shared-schema.ts';
import { TestReceiver } from '../support/webhooks.ts';

/**
 * Drill: a worker killed with -9 in the middle of a crawl (its fetch of the publisher's file held
 * open), a webhook delivery (the receiver holding the request) and a signal activation (pending),
 * with a web instance and then a second worker on the same PostgreSQL. Leases are 3 s here: once
 * the dead worker's lapse, the second worker takes the work over and finishes it. Every webhook is
 * delivered, and the receiver, which dedupes by idempotency key, processes each once although the
 * one in flight is sent twice.
 */
const adagentsPath = '/.well-known/adagents.json';
const activationSeconds = 2;

/** The publisher's file: its site, sold by one agent. */
const adagents = (domain: string) => ({
  authorized_agents: [
    {
      url: 'https://sales.drill.example/mcp',
      authorized_for: 'Display',
      authorization_type: 'property_ids',
      property_ids: ['site'],
    },
  ],
  properties: [
    { property_id: 'site', property_type: 'website', name: 'Drill', identifiers: [{ type: 'domain', value: domain }] },
  ],
});

describe('drill: a worker killed in the middle of its work', { timeout: 60_000 }, () => {
  let shared: SharedSchema;
  let fleet: Fleet;
  let web: ServingAp;
  let firstWorker: ServingAp;
  let buyer: Client;
  const receiver = new TestReceiver();
  let env: Record<string, string>;
  let domain: string;

  before(async () => {
    shared = await openSharedSchema();
    fleet = await startFleet(['worker-drill']);
    domain = fleet.domains[0]!;
    await receiver.listen();
    const fetchEnv = fleet.processEnv();
    env = {
      ...fetchEnv,
      AP_FETCH_ALLOW: `${fetchEnv['AP_FETCH_ALLOW']},${new URL(receiver.url).host}`,
      AP_ADMIN_KEY: adminKey,
      AP_SIGNING_KEY_SECRET: 'drill-signing-key-secret-0123456789abcdef',
      AGENTS: 'true',
      SIGNALS_ACTIVATION_SECONDS: String(activationSeconds),
      CRAWL_WORKER: 'true',
      CRAWL_POLL_SECONDS: '1',
      CRAWL_HOST_DELAY_MS: '0',
      CRAWL_LEASE_SECONDS: '3',
      AGENT_WEBHOOK_LEASE_SECONDS: '3',
      AGENT_TASK_LEASE_SECONDS: '3',
      AGENT_WEBHOOK_RETRY_BASE_MS: '200',
    };
    web = await shared.serve({ ...env, AP_ROLE: 'web' });
    await untilReady(web);
    firstWorker = await shared.serve({ ...env, AP_ROLE: 'worker' });
    await untilReady(firstWorker);
    receiver.trust(web.url);
    buyer = await mcpClient(web.url, '/signals', asAdmin);
  });
  after(async () => {
    await buyer?.close();
    await shared?.close();
    await fleet?.close();
    await receiver.close();
  });

  async function call(task: string, args: Record<string, unknown>): Promise<Json> {
    const result = (await buyer.callTool({ name: task, arguments: args })) as Json;
    const payload = JSON.parse(result['content'][0].text as string) as Json;
    assert.equal(result['isError'] === true, false, `${task}: ${JSON.stringify(payload)}`);
    return payload;
  }

  const activate = async (hook: string, segment: string, platform: string) => {
    const accepted = await call('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: segment,
      destinations: [{ type: 'platform', platform }],
      push_notification_config: {
        url: `${receiver.url}/hooks/${hook}`,
        authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
      },
    });
    assert.deepEqual(validateSchema('/schemas/3.0.6/signals/activate-signal-response.json', accepted).errors, []);
    assert.equal(accepted['status'], 'submitted');
    return accepted['task_id'] as string;
  };

  it('has the work taken over and finished by another worker, each webhook processed once', async () => {
    // The crawl's fetch is held at the publisher, the first activation's webhook at the receiver.
    let releaseCrawl!: () => void;
    let releaseWebhook!: () => void;
    fleet.serve(domain, adagentsPath, {
      body: adagents(domain),
      heldUntil: new Promise<void>((resolve) => (releaseCrawl = resolve)),
    });
    receiver.hold = new Promise<void>((resolve) => (releaseWebhook = resolve));

    const first = await activate('first', 'agr_demo_adults_18_24', 'dv360');
    await receiver.until(() => receiver.held > 0);
    const crawl = await fetch(`${web.url}/api/registry/crawl-request`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ domain }),
    });
    assert.equal(crawl.status, 202, await crawl.text());
    await fleet.until(() => fleet.requests(domain).includes(adagentsPath));
    const second = await activate('second', 'agr_demo_women_18_24', 'yahoo-dsp');

    // Killed with everything in flight: a fetch held, a delivery unanswered, an activation pending.
    firstWorker.process.kill('SIGKILL');
    await new Promise((resolve) => firstWorker.process.once('exit', resolve));
    const secondWorker = await shared.serve({ ...env, AP_ROLE: 'worker' });
    receiver.hold = undefined;
    fleet.serve(domain, adagentsPath, {
      body: adagents(domain),
    });
    releaseCrawl();
    // The held delivery is processed now, its sender gone: the receiver has it, the sender never heard.
    releaseWebhook();

    const completed = (taskId: string) =>
      receiver.events.some((e) => e['task_id'] === taskId && e['status'] === 'completed');
    await receiver.until(() => completed(first) && completed(second));
    for (const taskId of [first, second])
      assert.equal((await call('get_task', { task_id: taskId }))['status'], 'completed');

    // Crawled again by the second worker once the first's lease lapsed.
    await untilLogged([secondWorker], () =>
      secondWorker.logs.some((l) => l.includes('"crawled"') && l.includes(domain)),
    );
    const publisher = await fetch(`${web.url}/api/registry/publisher?domain=${domain}`);
    assert.equal(publisher.status, 200);
    assert.equal(((await publisher.json()) as Json)['adagents']['status'], 'active');

    // Each event processed once, though the first activation's completion was sent twice.
    const keys = receiver.events.map((e) => e['idempotency_key']);
    assert.equal(new Set(keys).size, keys.length, 'no event processed twice');
    const sent = (taskId: string) =>
      receiver.requests.filter(
        (r) => r.url.includes('/hooks/first') && r.body.includes(taskId) && r.body.includes('"completed"'),
      ).length;
    assert.ok(sent(first) >= 2, `the held delivery was sent again (${sent(first)} times)`);
  });
});
