/**
 * Verifies inbound webhooks under the "ap/webhook-signing/v1" profile.
 *
 * The checks run in the README checklist's order, and the order is deliberate: everything that
 * needs only the headers (syntax, parameters, tag, algorithm, window, components) comes before any
 * key lookup; key purpose, revocation and the per-keyid cap come before the signature check, so
 * unauthenticated traffic cannot make us fetch keys or spend Ed25519/ECDSA time for nothing; and a
 * nonce is recorded only once the signature and digest have verified, so forged requests can
 * neither fill the replay cache nor burn a legitimate sender's nonce.
 *
 * Every refusal is a result, not an exception: the caller answers 401 with the code. Exceptions
 * are left for the verifier's own dependencies failing (key resolution, revocation or replay
 * storage), which are a 5xx, not a verdict on the webhook.
 */
import { systemClock, type Clock } from '../clock.ts';
import { jwkFitsAlgorithm, publicKeyFromJwk, verifyBytes, type WebhookJwk } from './algorithms.ts';
import { contentDigestMatches, type Body } from './content-digest.ts';
import {
  DEFAULT_MAX_SKEW_SECONDS,
  MAX_WINDOW_SECONDS,
  REQUIRED_COMPONENTS,
  REQUIRED_PARAMETERS,
  SIGNATURE_LABEL,
  WEBHOOK_KEY_USE,
  WEBHOOK_SIGNING_TAG,
  isAllowedAlgorithm,
  type SignatureAlgorithm,
} from './profile.ts';
import { webhookSignatureErrorStep, type WebhookSignatureError } from './reasons.ts';
import type { ReplayCache } from './replay-cache.ts';
import { isRevocationStale, type RevocationList } from './revocation.ts';
import { buildSignatureBase, headerValue, SignatureBaseError, type HeaderInput } from './signature-base.ts';
import {
  parseSignature,
  parseSignatureInput,
  serializeSignatureParams,
  SignatureFieldError,
} from './signature-fields.ts';
import { canonicalizeTargetUri, TargetUriError } from './target-uri.ts';

/** A webhook as received: the URL the sender addressed (scheme, Host, request target) and the raw body. */
export interface IncomingWebhook {
  method: string;
  url: string;
  headers: HeaderInput;
  body: Body;
}

export interface WebhookVerifierOptions {
  /** The sender's published JWK for `keyid`, or `undefined` when it has none (after any refetch). */
  resolveKey(keyid: string): WebhookJwk | undefined | Promise<WebhookJwk | undefined>;
  /** Where seen nonces are kept; share one across verifiers of the same receiver. */
  replayCache: ReplayCache;
  /** The revocation list to consult; without one, revocation is not checked. */
  revocation?: RevocationList;
  /** How long past the list's `nextUpdate` it is still trusted; defaults to 300 s. */
  revocationGraceSeconds?: number;
  /** Defaults to the system clock. */
  clock?: Clock;
  /** Tolerated clock difference around `created`/`expires`; defaults to 60 s. */
  maxSkewSeconds?: number;
}

export interface WebhookVerified {
  ok: true;
  keyid: string;
  alg: SignatureAlgorithm;
  label: string;
  created: number;
  expires: number;
  nonce: string;
  /** The covered components, in signed order. */
  components: string[];
  /** The signature base that verified (RFC 9421 §2.5). */
  signatureBase: string;
}

export interface WebhookRejected {
  ok: false;
  code: WebhookSignatureError;
  status: 401;
  /** The `WWW-Authenticate` value to answer with: `Signature error="<code>"`. */
  wwwAuthenticate: string;
  /** The checklist step that failed (informational). */
  step: number;
  /** Why, for logs; not meant for the sender. */
  message: string;
}

export type WebhookVerification = WebhookVerified | WebhookRejected;

export interface WebhookVerifier {
  verify(request: IncomingWebhook): Promise<WebhookVerification>;
}

const DEFAULT_REVOCATION_GRACE_SECONDS = 300;

/** A refusal on the way through the checklist; caught in `verify` and turned into a result. */
class Rejection extends Error {
  readonly code: WebhookSignatureError;
  constructor(code: WebhookSignatureError, message: string) {
    super(message);
    this.code = code;
  }
}

export function createWebhookVerifier(options: WebhookVerifierOptions): WebhookVerifier {
  const clock = options.clock ?? systemClock;
  const maxSkew = options.maxSkewSeconds ?? DEFAULT_MAX_SKEW_SECONDS;
  const revocationGrace = options.revocationGraceSeconds ?? DEFAULT_REVOCATION_GRACE_SECONDS;

  async function check(request: IncomingWebhook): Promise<WebhookVerified> {
    const now = clock.now();
    const nowSeconds = now.getTime() / 1000;

    // Step 1: Signature-Input and Signature both present, parseable, and both carrying sig1.
    const inputField = headerValue(request.headers, 'signature-input');
    const signatureField = headerValue(request.headers, 'signature');
    if (inputField === undefined || signatureField === undefined) {
      throw new Rejection(
        'webhook_signature_header_malformed',
        inputField === signatureField
          ? 'no Signature and Signature-Input headers'
          : 'Signature and Signature-Input must come together',
      );
    }
    let input;
    let signature;
    try {
      input = parseSignatureInput(inputField, SIGNATURE_LABEL);
      signature = parseSignature(signatureField, SIGNATURE_LABEL);
    } catch (err) {
      if (err instanceof SignatureFieldError) throw new Rejection('webhook_signature_header_malformed', err.message);
      throw err;
    }
    if (input === undefined)
      throw new Rejection('webhook_signature_header_malformed', `Signature-Input has no "${SIGNATURE_LABEL}" label`);
    if (signature === undefined)
      throw new Rejection('webhook_signature_header_malformed', `Signature has no "${SIGNATURE_LABEL}" label`);
    const { components, parameters } = input;

    // Step 2: every required parameter present (types were checked while parsing).
    const missing = REQUIRED_PARAMETERS.filter(
      (name) => parameters.get(name) === undefined || parameters.get(name) === '',
    );
    if (missing.length > 0)
      throw new Rejection('webhook_signature_params_incomplete', `missing parameters: ${missing.join(', ')}`);
    const created = parameters.get('created') as number;
    const expires = parameters.get('expires') as number;
    const nonce = parameters.get('nonce') as string;
    const keyid = parameters.get('keyid') as string;
    const alg = parameters.get('alg') as string;

    // Step 3: the webhook tag, so a request signature cannot be replayed as a webhook.
    if (parameters.get('tag') !== WEBHOOK_SIGNING_TAG) {
      throw new Rejection('webhook_signature_tag_invalid', `tag must be "${WEBHOOK_SIGNING_TAG}"`);
    }

    // Step 4: algorithm allow-list.
    if (!isAllowedAlgorithm(alg))
      throw new Rejection('webhook_signature_alg_not_allowed', `alg "${alg}" is not allowed`);

    // Step 5: a sane window that contains now, give or take the skew.
    if (expires <= created) throw new Rejection('webhook_signature_window_invalid', 'expires is not after created');
    if (expires - created > MAX_WINDOW_SECONDS) {
      throw new Rejection('webhook_signature_window_invalid', `the window is longer than ${MAX_WINDOW_SECONDS} s`);
    }
    if (nowSeconds < created - maxSkew)
      throw new Rejection('webhook_signature_window_invalid', 'created is in the future');
    if (nowSeconds > expires + maxSkew)
      throw new Rejection('webhook_signature_window_invalid', 'the signature has expired');

    // Step 6: all required components covered, and every covered field present in the message.
    const uncovered = REQUIRED_COMPONENTS.filter((component) => !components.includes(component));
    if (uncovered.length > 0) {
      throw new Rejection('webhook_signature_components_incomplete', `components not covered: ${uncovered.join(', ')}`);
    }
    const absent = components.filter(
      (component) => !component.startsWith('@') && headerValue(request.headers, component) === undefined,
    );
    if (absent.length > 0) {
      throw new Rejection(
        'webhook_signature_components_incomplete',
        `covered fields not in the message: ${absent.join(', ')}`,
      );
    }

    // Step 7: the sender's key.
    const jwk = await options.resolveKey(keyid);
    if (jwk === undefined || (jwk.kid !== undefined && jwk.kid !== keyid)) {
      throw new Rejection('webhook_signature_key_unknown', `no key "${keyid}"`);
    }

    // Step 8: the key is published for verifying webhook signatures, and for nothing else.
    if (
      jwk.use !== 'sig' ||
      !Array.isArray(jwk.key_ops) ||
      !jwk.key_ops.includes('verify') ||
      jwk.ap_use !== WEBHOOK_KEY_USE
    ) {
      throw new Rejection(
        'webhook_signature_key_purpose_invalid',
        `key "${keyid}" must have use "sig", key_ops with "verify" and ap_use "${WEBHOOK_KEY_USE}"`,
      );
    }

    // Step 9: not revoked, by a list recent enough to say so.
    if (options.revocation) {
      if (await options.revocation.isRevoked(keyid))
        throw new Rejection('webhook_signature_key_revoked', `key "${keyid}" is revoked`);
      if (isRevocationStale(await options.revocation.freshness(), now, revocationGrace)) {
        throw new Rejection(
          'webhook_signature_revocation_stale',
          'the revocation list is past its next update and grace period',
        );
      }
    }

    // Step 9a: the key's replay-cache share is not exhausted.
    if (await options.replayCache.isFull(keyid, nowSeconds)) {
      throw new Rejection('webhook_signature_rate_abuse', `key "${keyid}" has too many live nonces`);
    }

    // Step 10: the signature over the base rebuilt from this request.
    let signatureBase: string;
    try {
      const target = canonicalizeTargetUri(request.url);
      const signatureParams = serializeSignatureParams(components, parameters);
      signatureBase = buildSignatureBase(
        { method: request.method, target, headers: request.headers },
        components,
        signatureParams,
      );
    } catch (err) {
      if (err instanceof TargetUriError || err instanceof SignatureBaseError) {
        throw new Rejection('webhook_signature_invalid', `no signature base: ${err.message}`);
      }
      throw err;
    }
    if (!jwkFitsAlgorithm(jwk, alg))
      throw new Rejection('webhook_signature_invalid', `key "${keyid}" is not an ${alg} key`);
    let publicKey;
    try {
      publicKey = publicKeyFromJwk(jwk);
    } catch (err) {
      throw new Rejection('webhook_signature_invalid', `key "${keyid}" is not usable: ${(err as Error).message}`);
    }
    if (!verifyBytes(alg, publicKey, Buffer.from(signatureBase, 'ascii'), signature)) {
      throw new Rejection('webhook_signature_invalid', 'the signature does not verify');
    }

    // Step 11: the body is the one the signed Content-Digest describes.
    if (!contentDigestMatches(headerValue(request.headers, 'content-digest') ?? '', request.body)) {
      throw new Rejection('webhook_signature_digest_mismatch', 'Content-Digest does not match the body');
    }

    // Step 12: first use of the nonce. Kept while the window check could still pass: to expires + skew.
    const outcome = await options.replayCache.record(keyid, nonce, expires + maxSkew + 1, nowSeconds);
    if (outcome === 'replayed') throw new Rejection('webhook_signature_replayed', 'the nonce was already used');
    if (outcome === 'cap_exceeded')
      throw new Rejection('webhook_signature_rate_abuse', `key "${keyid}" has too many live nonces`);

    return { ok: true, keyid, alg, label: SIGNATURE_LABEL, created, expires, nonce, components, signatureBase };
  }

  return {
    async verify(request) {
      try {
        return await check(request);
      } catch (err) {
        if (!(err instanceof Rejection)) throw err;
        return {
          ok: false,
          code: err.code,
          status: 401,
          wwwAuthenticate: `Signature error="${err.code}"`,
          step: webhookSignatureErrorStep[err.code],
          message: err.message,
        };
      }
    },
  };
}
