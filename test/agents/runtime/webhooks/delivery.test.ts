import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DeliveryEvent, TaskEvent } from '../../../../src/agents/index.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../../src/net/safe-fetch.ts';
import { mcpClient, testTenant } from '../../../support/agents.ts';
import { createApiKeyFor, seedOrganization } from '../../../support/identity.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { Reports } from '../../../support/events.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';

const payloadOf = (result: unknown) => JSON.parse((result as Json).content[0].text) as Json;

eachEngine('long-running tasks and signed webhooks', (engine) => {
  let server: TestServer;
  let client: Client;
  const receiver = new TestReceiver();
  const { tenant, executions, held } = testTenant();
  const tasks = new Reports<TaskEvent>();
  const attempts = new Reports<DeliveryEvent>();
  const attempt = (taskId: string, outcome: DeliveryEvent['outcome']) =>
    attempts.until((a) => a.taskId === taskId && a.outcome === outcome);
  const received = (taskId: string) => receiver.until(() => receiver.events.some((e) => e.task_id === taskId));
  const build = async (name: string, extra: Record<string, unknown> = {}) =>
    payloadOf(
      await client.callTool({
        name: 'build_thing',
        arguments: {
          idempotency_key: randomUUID(),
          name,
          push_notification_config: {
            url: `${receiver.url}/hooks/ap/${name}`,
            authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
          },
          ...extra,
        },
      }),
    );
  const deliveries = (taskId: string) =>
    server.db.query<{ state: string; attempts: number; last_error: string | null }>(
      'select state, attempts, last_error from webhook_deliveries where task_id = $1',
      [taskId],
    );

  before(async () => {
    await receiver.listen();
    server = await startTestServer(engine, {
      deps: { tenants: [tenant], fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }) },
      env: { AGENT_WEBHOOK_RETRY_BASE_MS: '50' },
      extend: (app) => {
        app.taskWorker!.watch(tasks.add);
        app.webhookDeliverer!.watch(attempts.add);
      },
    });
    receiver.trust(server.url);
    client = await mcpClient(server.url);
  });
  after(async () => {
    await client.close();
    await server.close();
    await receiver.close();
  });

  describe('accepting and polling', () => {
    it('answers at once with a task id, then get_task shows it working and completed with its result', async () => {
      const started = held('slow');
      const accepted = await build('slow');
      assert.equal(accepted.status, 'submitted');
      assert.match(accepted.task_id, /^[0-9a-f-]{36}$/);
      const release = await started;
      assert.equal(
        payloadOf(await client.callTool({ name: 'get_task', arguments: { task_id: accepted.task_id } })).status,
        'working',
      );
      release();
      await tasks.until((t) => t.taskId === accepted.task_id && t.status === 'completed');
      const done = payloadOf(await client.callTool({ name: 'get_task', arguments: { task_id: accepted.task_id } }));
      assert.equal(done.task_type, 'build_thing');
      assert.equal(done.result.name, 'slow');
    });

    it('does not show a task to another caller', async () => {
      const accepted = await build('mine');
      const other = await mcpClient(server.url, '/test', {
        authorization: `Bearer ${await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug)}`,
      });
      try {
        const error = payloadOf(await other.callTool({ name: 'get_task', arguments: { task_id: accepted.task_id } }));
        assert.equal(error.code, 'TASK_NOT_FOUND');
      } finally {
        await other.close();
      }
    });
  });

  describe('webhooks', () => {
    it('sends a signed webhook on completion that the receiver verifies and processes once', async () => {
      const accepted = await build('hooked');
      await received(accepted.task_id);
      const event = receiver.events.find((e) => e.task_id === accepted.task_id)!;
      assert.deepEqual(Object.keys(event).sort(), [
        'idempotency_key',
        'result',
        'status',
        'task_id',
        'task_type',
        'timestamp',
      ]);
      assert.equal(event.status, 'completed');
      assert.equal(event.task_type, 'build_thing');
      assert.equal((event.result as Json).name, 'hooked');
      assert.match(String(event.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 1);
      const request = receiver.requests.find((r) => r.body.includes(accepted.task_id))!;
      assert.match(
        String(request.headers['signature-input']),
        /^sig1=\("@method" "@target-uri" "@authority" "content-type" "content-digest"\);created=\d+;expires=\d+;nonce="[A-Za-z0-9_-]{22,}";keyid="[^"]+";alg="ed25519";tag="ap\/webhook-signing\/v1"$/,
      );
      // The receiver has the event before the sender has recorded its 200.
      await attempt(accepted.task_id, 'delivered');
      assert.deepEqual(await deliveries(accepted.task_id), [{ state: 'delivered', attempts: 1, last_error: null }]);
    });

    it('retries on 5xx and 429 with the same idempotency_key, and the receiver processes it once', async () => {
      receiver.answerOnly = '/hooks/ap/retried';
      receiver.answerWith = [503, 429];
      const accepted = await build('retried');
      await attempt(accepted.task_id, 'delivered');
      const [delivery] = await deliveries(accepted.task_id);
      assert.equal(delivery!.attempts, 3);
      assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 1);
    });

    it('answers a redelivered event 200 without processing it again', async () => {
      const accepted = await build('twice');
      await received(accepted.task_id);
      const first = receiver.requests.find((r) => r.body.includes(accepted.task_id))!;
      const processed = () => receiver.events.filter((e) => e.task_id === accepted.task_id).length;
      assert.equal(processed(), 1);
      // The same event re-signed, as the sender's retry would be (a new nonce, the same idempotency_key).
      const { signWebhook } = await import('../../../../src/signing/index.ts');
      const [row] = await server.db.query<{ private_key: string }>('select private_key from agent_signing_keys');
      const key = JSON.parse(row!.private_key) as Parameters<typeof signWebhook>[1];
      const signed = signWebhook(
        { method: 'POST', url: first.url, headers: { 'Content-Type': 'application/json' }, body: first.body },
        key,
      );
      const again = await receiver.handle({
        method: 'POST',
        url: first.url,
        headers: { ...signed.headers },
        body: first.body,
      });
      assert.equal(again.status, 200);
      assert.deepEqual(JSON.parse(again.body), { status: 'duplicate' });
      assert.equal(processed(), 1);
    });

    it('rejects an altered body, an altered covered header and a stale signature, each with its reason', async () => {
      const accepted = await build('tampered');
      await receiver.until(() => receiver.requests.some((r) => r.body.includes(accepted.task_id)));
      const original = receiver.requests.find((r) => r.body.includes(accepted.task_id))!;
      const reject = async (
        request: typeof original,
        reason: string,
        handle = (r: typeof original) => receiver.handle(r),
      ) => {
        const out = await handle(request);
        assert.equal(out.status, 401, reason);
        assert.equal(out.headers['www-authenticate'], `Signature error="${reason}"`);
      };
      await reject(
        { ...original, body: original.body.replace('tampered', 'tampored') },
        'webhook_signature_digest_mismatch',
      );
      await reject(
        { ...original, headers: { ...original.headers, 'content-type': 'text/plain' } },
        'webhook_signature_invalid',
      );
      const late = new ManualClock();
      late.advance(10 * 60_000);
      const lateReceiver = new TestReceiver();
      lateReceiver.trust(server.url, late);
      await reject(original, 'webhook_signature_window_invalid', (r) => lateReceiver.handle(r));
      await reject(original, 'webhook_signature_replayed');
    });

    it('gives up on a 4xx other than 429 without retrying', async () => {
      receiver.answerOnly = '/hooks/ap/gone';
      receiver.answerWith = [410];
      const accepted = await build('gone');
      await attempt(accepted.task_id, 'failed');
      assert.deepEqual(await deliveries(accepted.task_id), [{ state: 'failed', attempts: 1, last_error: 'HTTP 410' }]);
      assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 0);
    });

    it('never sends to an address the SSRF-safe client refuses', async () => {
      const accepted = payloadOf(
        await client.callTool({
          name: 'build_thing',
          arguments: {
            idempotency_key: randomUUID(),
            name: 'private',
            push_notification_config: { url: 'http://10.0.0.1/hook' },
          },
        }),
      );
      await attempt(accepted.task_id, 'failed');
      assert.match((await deliveries(accepted.task_id))[0]!.last_error!, /10\.0\.0\.1/);
    });

    it('runs each long task once per idempotency key', async () => {
      const key = randomUUID();
      const before = executions.build_thing;
      const args = {
        idempotency_key: key,
        name: 'once',
        push_notification_config: { url: `${receiver.url}/hooks/ap` },
      };
      const first = payloadOf(await client.callTool({ name: 'build_thing', arguments: args }));
      const second = payloadOf(await client.callTool({ name: 'build_thing', arguments: args }));
      assert.equal(second.task_id, first.task_id);
      assert.equal(second.replayed, true);
      await received(first.task_id);
      assert.equal(executions.build_thing, before + 1);
    });
  });
});
