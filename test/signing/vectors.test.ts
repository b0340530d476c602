/**
 * The webhook-signing conformance vectors (vendored from shared/test-vectors), run white-box:
 * each vector's clock, key set and harness state are installed directly, then the verifier must
 * accept the positive ones with a byte-identical signature base and reject the negative ones with
 * the exact error code. The canonicalization cases shared with request signing run here too,
 * since webhook signing applies them byte for byte.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Clock } from '../../src/clock.ts';
import {
  canonicalizeTargetUri,
  contentDigest,
  createWebhookVerifier,
  InMemoryReplayCache,
  InMemoryRevocationList,
  TargetUriError,
  type IncomingWebhook,
  type WebhookJwk,
  type WebhookSignatureError,
} from '../../src/signing/index.ts';

// The vendored copy (scripts/sync-test-vectors.sh), so the vectors run in any checkout.
const VENDORED = new URL('../fixtures/test-vectors/', import.meta.url);
const SHARED = new URL('../../../shared/test-vectors/', import.meta.url);
const VECTORS = new URL('webhook-signing/', VENDORED);
const CANONICALIZATION = new URL('request-signing/canonicalization.json', VENDORED);

interface Vector {
  name: string;
  reference_now: number;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  jwks_ref: string[];
  jwks_override?: Record<string, WebhookJwk>;
  expected_signature_base: string;
  expected_outcome: { success: true } | { success: false; error_code: WebhookSignatureError; failed_step: number };
  test_harness_state?: {
    replay_cache_entries?: { keyid: string; nonce: string }[];
    revoked_kids?: string[];
    per_keyid_cap_filled_for?: string;
    revocation_list_stale_seconds?: number;
  };
}

function readJson<T>(url: URL): T {
  return JSON.parse(readFileSync(url, 'utf8')) as T;
}

function loadVectors(folder: 'positive' | 'negative'): [string, Vector][] {
  const dir = new URL(`${folder}/`, VECTORS);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => [file, readJson<Vector>(new URL(file, dir))]);
}

// Fail loudly, never skip: a missing checkout must not look like a passing conformance run.
const present = existsSync(VECTORS) && existsSync(CANONICALIZATION);
const keys = present ? readJson<{ keys: (WebhookJwk & { kid: string })[] }>(new URL('keys.json', VECTORS)).keys : [];
const positive = present ? loadVectors('positive') : [];
const negative = present ? loadVectors('negative') : [];

/** The per-keyid cap the harness fills for the rate-abuse vector. */
const TEST_CAP = 32;

/** A verifier set up as the vector says: its clock, its key subset, its harness state. */
function verifierFor(vector: Vector) {
  const now = vector.reference_now;
  const clock: Clock = { now: () => new Date(now * 1000) };

  // Only the vector's keys, with any override applied, and never the published private part.
  const jwks = new Map<string, WebhookJwk>();
  for (const kid of vector.jwks_ref) {
    const base = vector.jwks_override?.[kid] ?? keys.find((key) => key.kid === kid);
    assert.ok(base, `keys.json has ${kid}`);
    const { _private_d_for_test_only: _private, ...jwk } = base as WebhookJwk & { _private_d_for_test_only?: string };
    jwks.set(kid, jwk);
  }

  const state = vector.test_harness_state ?? {};
  const replayCache = new InMemoryReplayCache({ maxEntriesPerKeyid: TEST_CAP });
  for (const { keyid, nonce } of state.replay_cache_entries ?? []) {
    assert.equal(replayCache.record(keyid, nonce, now + 3600, now), 'recorded');
  }
  if (state.per_keyid_cap_filled_for !== undefined) {
    for (let i = 0; i < TEST_CAP; i++)
      replayCache.record(state.per_keyid_cap_filled_for, `prefill-${i}`, now + 3600, now);
    assert.equal(replayCache.isFull(state.per_keyid_cap_filled_for, now), true);
  }

  // A list fetched `stale` seconds ago that promised its next version 15 minutes after that.
  const revocation = new InMemoryRevocationList();
  const fetchedAt = now - (state.revocation_list_stale_seconds ?? 0);
  revocation.update(state.revoked_kids ?? [], new Date((fetchedAt + 900) * 1000));

  const verifier = createWebhookVerifier({
    resolveKey: async (keyid) => jwks.get(keyid),
    replayCache,
    revocation,
    revocationGraceSeconds: 300,
    clock,
  });
  return { verifier, replayCache };
}

function incoming(vector: Vector): IncomingWebhook {
  return { ...vector.request, headers: { ...vector.request.headers } };
}

describe('vendored test vectors', () => {
  it('are byte-identical to ../shared/test-vectors', (t) => {
    if (!existsSync(SHARED)) {
      t.diagnostic(
        `${SHARED.pathname} is absent, so the vendored vectors cannot be compared; they are used as they are`,
      );
      return;
    }
    const jsonUnder = (root: URL): string[] =>
      (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort();
    const shared = jsonUnder(SHARED);
    assert.deepEqual(jsonUnder(VENDORED), shared, 'the file lists differ; run scripts/sync-test-vectors.sh');
    for (const file of shared) {
      assert.ok(
        readFileSync(new URL(file, VENDORED)).equals(readFileSync(new URL(file, SHARED))),
        `${file} differs; run scripts/sync-test-vectors.sh`,
      );
    }
  });
});

describe('webhook-signing conformance vectors', () => {
  it('finds the shared vectors', () => {
    assert.ok(
      present,
      `conformance vectors not found at ${VECTORS.pathname} (and ${CANONICALIZATION.pathname}); ` +
        'run scripts/sync-test-vectors.sh',
    );
    assert.equal(positive.length, 7, 'seven positive vectors');
    assert.equal(negative.length, 21, 'twenty-one negative vectors');
  });

  describe('positive', () => {
    for (const [file, vector] of positive) {
      it(`${file}: ${vector.name}`, async () => {
        const { verifier, replayCache } = verifierFor(vector);
        const result = await verifier.verify(incoming(vector));
        assert.ok(result.ok, `rejected: ${result.ok ? '' : `${result.code} (${result.message})`}`);
        assert.equal(result.signatureBase, vector.expected_signature_base);
        assert.equal(result.label, 'sig1');
        assert.equal(contentDigest(vector.request.body), vector.request.headers['Content-Digest']);
        // The nonce is now spent: the same delivery again is a replay.
        assert.equal(replayCache.size(result.keyid, vector.reference_now), 1);
        const again = await verifier.verify(incoming(vector));
        assert.equal(again.ok ? 'ok' : again.code, 'webhook_signature_replayed');
      });
    }
  });

  describe('negative', () => {
    for (const [file, vector] of negative) {
      it(`${file}: ${vector.name}`, async () => {
        assert.equal(vector.expected_outcome.success, false);
        const expected = vector.expected_outcome.success ? undefined : vector.expected_outcome.error_code;
        const { verifier } = verifierFor(vector);
        const result = await verifier.verify(incoming(vector));
        assert.equal(result.ok ? 'accepted' : result.code, expected, result.ok ? '' : result.message);
        if (!result.ok) {
          assert.equal(result.status, 401);
          assert.equal(result.wwwAuthenticate, `Signature error="${expected}"`);
        }
      });
    }
  });

  it('016 in black-box form: delivered twice, the first is accepted and the second replayed', async () => {
    const vector = negative.find(([file]) => file.startsWith('016-'))?.[1];
    assert.ok(vector);
    const { verifier } = verifierFor({ ...vector, test_harness_state: {} });
    const first = await verifier.verify(incoming(vector));
    assert.ok(first.ok, first.ok ? '' : first.code);
    const second = await verifier.verify(incoming(vector));
    assert.equal(second.ok ? 'ok' : second.code, 'webhook_signature_replayed');
  });

  it('a failed verification does not spend the nonce', async () => {
    const vector = positive.find(([file]) => file.startsWith('001-'))?.[1];
    assert.ok(vector);
    const { verifier, replayCache } = verifierFor(vector);
    const tampered = incoming(vector);
    tampered.body = `${vector.request.body} `;
    const result = await verifier.verify(tampered);
    assert.equal(result.ok ? 'ok' : result.code, 'webhook_signature_digest_mismatch');
    assert.equal(replayCache.size('test-ed25519-webhook-2026', vector.reference_now), 0);
    assert.ok((await verifier.verify(incoming(vector))).ok);
  });
});

describe('@target-uri canonicalization cases (shared with request signing)', () => {
  const cases = present
    ? readJson<{
        cases: {
          name: string;
          input_url: string;
          expected_target_uri?: string;
          expected_authority?: string;
          reject?: boolean;
        }[];
      }>(CANONICALIZATION).cases
    : [];
  it('finds the cases', () => assert.ok(cases.length > 0, `no canonicalization cases at ${CANONICALIZATION.pathname}`));
  for (const c of cases) {
    it(c.name, () => {
      if (c.reject) {
        assert.throws(() => canonicalizeTargetUri(c.input_url), TargetUriError);
        return;
      }
      const target = canonicalizeTargetUri(c.input_url);
      assert.equal(target.targetUri, c.expected_target_uri);
      assert.equal(target.authority, c.expected_authority);
    });
  }
});
