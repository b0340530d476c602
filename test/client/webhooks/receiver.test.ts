import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createWebhookReceiver,
  FileSeenKeys,
  InMemorySeenKeys,
  type WebhookEvent,
  type WebhookRejection,
} from '../../../src/client/webhooks/index.ts';
import { signWebhook, type WebhookJwk, type WebhookSigningKey } from '../../../src/signing/index.ts';

const URL_ = 'https://buyer.example/hooks/ap';
const { privateKey } = generateKeyPairSync('ed25519');
const signing = { ...privateKey.export({ format: 'jwk' }), kid: 'seller-1' } as WebhookSigningKey;
const { d: _d, ...published } = signing;
const publicKey = { ...published, use: 'sig', key_ops: ['verify'], ap_use: 'webhook-signing' } as WebhookJwk;

/** A delivery of `event` as a seller signs it: a fresh signature (nonce) each time, as each retry has. */
function delivery(event: Record<string, unknown>) {
  const body = JSON.stringify(event);
  const signed = signWebhook({ method: 'POST', url: URL_, body }, signing);
  return {
    method: 'POST',
    url: URL_,
    headers: Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v])),
    body,
  };
}

describe('the webhook receiver with durable keys', () => {
  let dir: string;
  let seen: FileSeenKeys;
  const events: WebhookEvent[] = [];
  const rejections: WebhookRejection[] = [];
  let onEvent: (event: WebhookEvent) => Promise<void> | void = (event) => void events.push(event);
  let keysFail = false;
  const receiver = () =>
    createWebhookReceiver({
      resolveKey: async (kid) => {
        if (keysFail) throw new Error('brand.json answered HTTP 503');
        return kid === publicKey.kid ? publicKey : undefined;
      },
      onEvent: (event) => onEvent(event),
      seen,
      onRejected: (r) => void rejections.push(r),
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-receiver-'));
    seen = await FileSeenKeys.open({ dir });
  });
  after(async () => {
    await seen.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('tells a delivery that arrives while another of the same key is processed to come back, then answers it as a duplicate', async () => {
    const r = receiver();
    const key = randomUUID();
    let finish!: () => void;
    const started = new Promise<void>((resolve) => {
      onEvent = (event) => {
        resolve();
        return new Promise<void>((done) => (finish = () => (events.push(event), done())));
      };
    });
    const first = r.handle(delivery({ idempotency_key: key, status: 'completed' }));
    await started;
    const concurrent = await r.handle(delivery({ idempotency_key: key, status: 'completed' }));
    assert.equal(concurrent.status, 503);
    assert.deepEqual(JSON.parse(concurrent.body), { error: 'in_progress' });
    assert.equal(concurrent.headers['retry-after'], '1');
    finish();
    assert.equal((await first).status, 200);
    const retry = await r.handle(delivery({ idempotency_key: key, status: 'completed' }));
    assert.deepEqual([retry.status, JSON.parse(retry.body)], [200, { status: 'duplicate' }]);
    assert.equal(events.filter((e) => e.idempotency_key === key).length, 1);
    assert.deepEqual(
      rejections.filter((x) => x.idempotencyKey === key).map((x) => x.error),
      ['in_progress'],
    );
  });

  it('gives the key back when processing fails (500), so the retry is processed', async () => {
    const r = receiver();
    const key = randomUUID();
    onEvent = () => {
      throw new Error('forwarding failed: HTTP 502');
    };
    const failed = await r.handle(delivery({ idempotency_key: key }));
    assert.deepEqual([failed.status, JSON.parse(failed.body)], [500, { error: 'processing_failed' }]);
    assert.match(rejections.at(-1)!.message, /HTTP 502/);
    onEvent = (event) => void events.push(event);
    assert.equal((await r.handle(delivery({ idempotency_key: key }))).status, 200);
    assert.equal(events.filter((e) => e.idempotency_key === key).length, 1);
  });

  it('answers 503 keys_unavailable when the seller’s keys cannot be read, and 401 with the reason for a bad signature', async () => {
    const r = receiver();
    keysFail = true;
    try {
      const unavailable = await r.handle(delivery({ idempotency_key: randomUUID() }));
      assert.deepEqual([unavailable.status, JSON.parse(unavailable.body)], [503, { error: 'keys_unavailable' }]);
    } finally {
      keysFail = false;
    }
    const tampered = delivery({ idempotency_key: randomUUID() });
    const rejected = await r.handle({ ...tampered, body: tampered.body.replace('}', ',"x":1}') });
    assert.equal(rejected.status, 401);
    assert.equal(rejected.headers['www-authenticate'], 'Signature error="webhook_signature_digest_mismatch"');
    assert.equal(rejections.at(-1)!.error, 'webhook_signature_digest_mismatch');
  });
});

describe('InMemorySeenKeys, the receiver’s default', () => {
  it('tells a second delivery of a key still being processed to come back, so a failure of the first loses nothing', () => {
    const seen = new InMemorySeenKeys();
    assert.equal(seen.claim('k'), true);
    assert.equal(seen.claim('k'), 'in-progress');
    seen.release('k');
    assert.equal(seen.claim('k'), true);
    seen.commit('k');
    assert.equal(seen.claim('k'), false);
  });
});
