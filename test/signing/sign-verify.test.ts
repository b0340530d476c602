/**
 * Signer and verifier against each other with fresh keys: the vectors pin the verifier to frozen
 * signatures, these pin the signer to the verifier and show each tampering lands on its own code.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  createWebhookVerifier,
  InMemoryReplayCache,
  MAX_WINDOW_SECONDS,
  REQUIRED_COMPONENTS,
  signWebhook,
  type IncomingWebhook,
  type OutgoingWebhook,
  type WebhookJwk,
  type WebhookSigningKey,
} from '../../src/signing/index.ts';
import { ManualClock } from '../support/clock.ts';

interface KeyPair {
  privateJwk: WebhookSigningKey;
  publicJwk: WebhookJwk;
}

function keyPair(type: 'ed25519' | 'p256'): KeyPair {
  const { privateKey } =
    type === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const exported = privateKey.export({ format: 'jwk' }) as WebhookJwk & { d: string };
  const kid = `test-${type}-${randomUUID()}`;
  const meta = { kid, use: 'sig', ap_use: 'webhook-signing', alg: type === 'ed25519' ? 'EdDSA' : 'ES256' } as const;
  const { d: _d, ...publicPart } = exported;
  return {
    privateJwk: { ...exported, ...meta },
    publicJwk: { ...publicPart, ...meta, key_ops: ['verify'] },
  };
}

const BODY = JSON.stringify({ idempotency_key: 'whk_1', task_id: 'task_1', status: 'completed' });
const URL_ = 'https://buyer.example.com/ap/webhook/create_media_buy/agent_1/op_1?b=2&a=1';

function setup(keys: KeyPair) {
  const clock = new ManualClock();
  clock.set(Date.UTC(2026, 3, 18, 10, 0, 0));
  const replayCache = new InMemoryReplayCache();
  const verifier = createWebhookVerifier({
    resolveKey: async (keyid) => (keyid === keys.publicJwk.kid ? keys.publicJwk : undefined),
    replayCache,
    clock,
  });
  const outgoing: OutgoingWebhook = { method: 'POST', url: URL_, body: BODY };
  const signed = signWebhook(outgoing, keys.privateJwk, { clock });
  const delivered = (change: Partial<IncomingWebhook> = {}): IncomingWebhook => ({
    method: 'POST',
    url: URL_,
    headers: { ...signed.headers },
    body: BODY,
    ...change,
  });
  return { clock, verifier, replayCache, signed, delivered };
}

async function codeOf(result: Promise<{ ok: true } | { ok: false; code: string }>): Promise<string> {
  const settled = await result;
  return settled.ok ? 'ok' : settled.code;
}

for (const type of ['ed25519', 'p256'] as const) {
  describe(`sign then verify (${type})`, () => {
    const keys = keyPair(type);

    it('verifies, with the same signature base on both sides', async () => {
      const { verifier, signed, delivered } = setup(keys);
      const result = await verifier.verify(delivered());
      assert.ok(result.ok, result.ok ? '' : `${result.code}: ${result.message}`);
      assert.equal(result.keyid, keys.publicJwk.kid);
      assert.equal(result.alg, type === 'ed25519' ? 'ed25519' : 'ecdsa-p256-sha256');
      assert.equal(result.signatureBase, signed.signatureBase);
    });

    it('verifies a request whose URL the receiver spells differently but equivalently', async () => {
      const { verifier, delivered } = setup(keys);
      const url = 'HTTPS://Buyer.Example.COM:443/ap/./webhook/create_media_buy/agent_1/op_1?b=2&a=1#frag';
      assert.ok((await verifier.verify(delivered({ url }))).ok);
    });

    it('reads headers from a fetch Headers object and from Node-style lowercase names', async () => {
      const { verifier, signed, delivered } = setup(keys);
      assert.ok((await verifier.verify(delivered({ headers: new Headers(signed.headers) }))).ok);
      const { verifier: other, signed: again, delivered: deliver2 } = setup(keys);
      const lower = Object.fromEntries(
        Object.entries(again.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      assert.ok((await other.verify(deliver2({ headers: lower }))).ok);
    });

    it('an altered body is a digest mismatch', async () => {
      const { verifier, delivered } = setup(keys);
      assert.equal(
        await codeOf(verifier.verify(delivered({ body: BODY.replace('completed', 'failed') }))),
        'webhook_signature_digest_mismatch',
      );
    });

    it('an altered covered header (content-type) invalidates the signature', async () => {
      const { verifier, signed, delivered } = setup(keys);
      const headers = { ...signed.headers, 'Content-Type': 'text/plain' };
      assert.equal(await codeOf(verifier.verify(delivered({ headers }))), 'webhook_signature_invalid');
    });

    it('an altered URL invalidates the signature', async () => {
      const { verifier, delivered } = setup(keys);
      for (const url of [
        'https://buyer.example.com/ap/webhook/create_media_buy/agent_1/op_2?b=2&a=1',
        'https://buyer.example.com/ap/webhook/create_media_buy/agent_1/op_1?a=1&b=2',
        'https://other.example.com/ap/webhook/create_media_buy/agent_1/op_1?b=2&a=1',
        'https://buyer.example.com:8443/ap/webhook/create_media_buy/agent_1/op_1?b=2&a=1',
      ]) {
        assert.equal(await codeOf(verifier.verify(delivered({ url }))), 'webhook_signature_invalid', url);
      }
    });

    it('an altered method invalidates the signature', async () => {
      const { verifier, delivered } = setup(keys);
      assert.equal(await codeOf(verifier.verify(delivered({ method: 'PUT' }))), 'webhook_signature_invalid');
    });

    it('is refused once the clock is past expires plus the skew, and accepted just before', async () => {
      const late = setup(keys);
      late.clock.advance((MAX_WINDOW_SECONDS + 60 + 1) * 1000);
      assert.equal(await codeOf(late.verifier.verify(late.delivered())), 'webhook_signature_window_invalid');
      const edge = setup(keys);
      edge.clock.advance((MAX_WINDOW_SECONDS + 60) * 1000);
      assert.equal(await codeOf(edge.verifier.verify(edge.delivered())), 'ok');
    });

    it('is refused when created is further in the future than the skew', async () => {
      const early = setup(keys);
      early.clock.advance(-61 * 1000);
      assert.equal(await codeOf(early.verifier.verify(early.delivered())), 'webhook_signature_window_invalid');
    });

    it('the same request twice is a replay, even at the last second of the window', async () => {
      const { verifier, clock, delivered } = setup(keys);
      assert.equal(await codeOf(verifier.verify(delivered())), 'ok');
      assert.equal(await codeOf(verifier.verify(delivered())), 'webhook_signature_replayed');
      clock.advance((MAX_WINDOW_SECONDS + 60) * 1000);
      assert.equal(await codeOf(verifier.verify(delivered())), 'webhook_signature_replayed');
    });

    it('a key published for another purpose, or revoked, is refused before the signature is checked', async () => {
      const { signed, delivered, clock } = setup(keys);
      const wrongPurpose = createWebhookVerifier({
        resolveKey: async () => ({ ...keys.publicJwk, ap_use: 'request-signing' }),
        replayCache: new InMemoryReplayCache(),
        clock,
      });
      assert.equal(await codeOf(wrongPurpose.verify(delivered())), 'webhook_signature_key_purpose_invalid');
      const unknown = createWebhookVerifier({
        resolveKey: async () => undefined,
        replayCache: new InMemoryReplayCache(),
        clock,
      });
      assert.equal(await codeOf(unknown.verify(delivered())), 'webhook_signature_key_unknown');
      const revoked = createWebhookVerifier({
        resolveKey: async () => keys.publicJwk,
        replayCache: new InMemoryReplayCache(),
        revocation: { isRevoked: (kid) => kid === signed.params.keyid, freshness: () => ({ nextUpdate: clock.now() }) },
        clock,
      });
      assert.equal(await codeOf(revoked.verify(delivered())), 'webhook_signature_key_revoked');
      const neverFetched = createWebhookVerifier({
        resolveKey: async () => keys.publicJwk,
        replayCache: new InMemoryReplayCache(),
        revocation: { isRevoked: () => false, freshness: () => undefined },
        clock,
      });
      assert.equal(await codeOf(neverFetched.verify(delivered())), 'webhook_signature_revocation_stale');
    });

    it('a full per-keyid replay cache is rate abuse, and an unverified request never fills it', async () => {
      const { clock, signed, delivered } = setup(keys);
      const replayCache = new InMemoryReplayCache({ maxEntriesPerKeyid: 1 });
      const verifier = createWebhookVerifier({ resolveKey: async () => keys.publicJwk, replayCache, clock });
      assert.equal(await codeOf(verifier.verify(delivered({ body: 'forged' }))), 'webhook_signature_digest_mismatch');
      assert.equal(await codeOf(verifier.verify(delivered())), 'ok');
      const next = signWebhook({ method: 'POST', url: URL_, body: BODY }, keys.privateJwk, { clock });
      const result = await verifier.verify({ method: 'POST', url: URL_, headers: next.headers, body: BODY });
      assert.equal(result.ok ? 'ok' : result.code, 'webhook_signature_rate_abuse');
      // Once the first nonce's retention is over, the key has room again.
      clock.advance((signed.params.expires - signed.params.created + 61) * 1000);
      const later = signWebhook({ method: 'POST', url: URL_, body: BODY }, keys.privateJwk, { clock });
      assert.equal(
        await codeOf(verifier.verify({ method: 'POST', url: URL_, headers: later.headers, body: BODY })),
        'ok',
      );
    });

    it('a Signature in standard base64, or without its Signature-Input, is malformed', async () => {
      const { verifier, signed, delivered } = setup(keys);
      const bytes = Buffer.from(signed.headers.Signature.slice('sig1=:'.length, -1), 'base64url');
      const standard = { ...signed.headers, Signature: `sig1=:${bytes.toString('base64')}:` };
      assert.equal(
        await codeOf(verifier.verify(delivered({ headers: standard }))),
        'webhook_signature_header_malformed',
      );
      const { 'Signature-Input': _input, ...withoutInput } = signed.headers;
      assert.equal(
        await codeOf(verifier.verify(delivered({ headers: withoutInput }))),
        'webhook_signature_header_malformed',
      );
      const { Signature: _signature, ...withoutSignature } = signed.headers;
      assert.equal(
        await codeOf(verifier.verify(delivered({ headers: withoutSignature }))),
        'webhook_signature_header_malformed',
      );
    });

    it('emits the profile parameters under label sig1', () => {
      const { signed } = setup(keys);
      const { params, headers } = signed;
      assert.match(params.nonce, /^[A-Za-z0-9_-]+$/, 'nonce is base64url without padding');
      assert.ok(Buffer.from(params.nonce, 'base64url').length >= 16, 'nonce has at least 16 random bytes');
      assert.ok(params.expires > params.created && params.expires - params.created <= 300);
      assert.equal(params.expires - params.created, 300, 'the default window is 300 s');
      assert.equal(params.tag, 'ap/webhook-signing/v1');
      assert.equal(params.keyid, keys.privateJwk.kid);
      assert.equal(headers['Content-Type'], 'application/json');
      assert.match(headers['Content-Digest'], /^sha-256=:[A-Za-z0-9+/]{43}=:$/);
      assert.equal(
        headers['Signature-Input'],
        `sig1=(${REQUIRED_COMPONENTS.map((c) => `"${c}"`).join(' ')});created=${params.created};expires=${params.expires};` +
          `nonce="${params.nonce}";keyid="${params.keyid}";alg="${params.alg}";tag="ap/webhook-signing/v1"`,
      );
      const signature = /^sig1=:([A-Za-z0-9_-]+):$/.exec(headers.Signature);
      assert.ok(signature, 'Signature is sig1 in base64url without padding');
      assert.equal(Buffer.from(signature[1]!, 'base64url').length, 64, 'raw 64-byte signature (r||s for ES256)');
      assert.ok(
        signed.signatureBase.endsWith(`"@signature-params": ${headers['Signature-Input'].slice('sig1='.length)}`),
      );
    });

    it('uses a fresh nonce per signature and honours a shorter window', () => {
      const clock = new ManualClock();
      const a = signWebhook({ method: 'POST', url: URL_, body: BODY }, keys.privateJwk, { clock, windowSeconds: 60 });
      const b = signWebhook({ method: 'POST', url: URL_, body: BODY }, keys.privateJwk, { clock });
      assert.notEqual(a.params.nonce, b.params.nonce);
      assert.equal(a.params.expires - a.params.created, 60);
    });
  });
}

describe('signer refusals', () => {
  const keys = keyPair('ed25519');
  const request: OutgoingWebhook = { method: 'POST', url: URL_, body: BODY };

  it('refuses a window over 300 s, a public key, a key for another purpose, and a malformed URL', () => {
    assert.throws(() => signWebhook(request, keys.privateJwk, { windowSeconds: 301 }), TypeError);
    assert.throws(() => signWebhook(request, keys.publicJwk as WebhookSigningKey), TypeError);
    assert.throws(() => signWebhook(request, { ...keys.privateJwk, ap_use: 'request-signing' }), TypeError);
    assert.throws(() => signWebhook(request, { ...keys.privateJwk, alg: 'ES256' }), TypeError);
    assert.throws(() => signWebhook({ ...request, url: 'https://[fe80::1%25eth0]/p' }, keys.privateJwk), {
      name: 'TargetUriError',
    });
  });

  it('signs the Content-Type the request already has', () => {
    const signed = signWebhook(
      { ...request, headers: { 'content-type': 'application/cloudevents+json' } },
      keys.privateJwk,
    );
    assert.equal(signed.headers['Content-Type'], 'application/cloudevents+json');
    assert.match(signed.signatureBase, /^"content-type": application\/cloudevents\+json$/m);
  });
});
