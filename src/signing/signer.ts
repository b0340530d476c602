/**
 * Signs outbound webhooks under the "ap/webhook-signing/v1" profile. The receiver's verifier is
 * strict (fixed components, window, tag, key purpose), so the signer produces exactly that shape
 * and refuses inputs that could only yield a signature the verifier rejects.
 */
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../clock.ts';
import { algorithmOfJwk, jwkFitsAlgorithm, privateKeyFromJwk, signBytes, type WebhookJwk } from './algorithms.ts';
import { contentDigest, type Body } from './content-digest.ts';
import {
  MAX_WINDOW_SECONDS,
  REQUIRED_COMPONENTS,
  SIGNATURE_LABEL,
  WEBHOOK_KEY_USE,
  WEBHOOK_SIGNING_TAG,
  type SignatureAlgorithm,
} from './profile.ts';
import { buildSignatureBase, headerValue, type HeaderInput } from './signature-base.ts';
import { serializeSignature, serializeSignatureInput, serializeSignatureParams } from './signature-fields.ts';
import { canonicalizeTargetUri } from './target-uri.ts';

/** A webhook about to be sent. `url` and `body` must be exactly what goes on the wire. */
export interface OutgoingWebhook {
  method: string;
  url: string;
  /** Headers already set; a `Content-Type` here is the one signed. */
  headers?: HeaderInput;
  body: Body;
}

/** A private signing key: an Ed25519 (OKP) or P-256 (EC) JWK with `kid` and `d`. */
export type WebhookSigningKey = WebhookJwk & { kid: string; d: string };

export interface SignWebhookOptions {
  /** Source of `created`; defaults to the system clock. */
  clock?: Clock;
  /** `expires - created`, 1 to 300 seconds; defaults to 300. */
  windowSeconds?: number;
  /** `Content-Type` when the request has none; defaults to `application/json`. */
  contentType?: string;
}

/** The signature parameters, as they appear in `Signature-Input`. */
export interface SignatureParameters {
  created: number;
  expires: number;
  nonce: string;
  keyid: string;
  alg: SignatureAlgorithm;
  tag: string;
}

export interface SignedWebhook {
  /**
   * The four headers to send, unaltered. They replace any header of the same name in any case:
   * sending `content-type` next to `Content-Type` would make one combined value that no longer
   * matches the signature.
   */
  headers: {
    'Content-Type': string;
    'Content-Digest': string;
    'Signature-Input': string;
    Signature: string;
  };
  params: SignatureParameters;
  /** The signature base that was signed, for debugging interop. */
  signatureBase: string;
}

/** Bytes of randomness in a nonce: 128 bits, so nonces never collide in a replay cache. */
const NONCE_BYTES = 16;

/**
 * Signs `request` with `key`. Throws `TypeError` for a key or window the profile does not allow and
 * `TargetUriError` for a URL that cannot be canonicalized.
 */
export function signWebhook(
  request: OutgoingWebhook,
  key: WebhookSigningKey,
  options: SignWebhookOptions = {},
): SignedWebhook {
  const alg = algorithmOfJwk(key);
  if (alg === undefined || !jwkFitsAlgorithm(key, alg)) {
    throw new TypeError('the signing key must be an Ed25519 (OKP) or P-256 (EC) JWK whose alg, if any, matches');
  }
  if (typeof key.kid !== 'string' || key.kid === '') throw new TypeError('the signing key has no kid');
  if (typeof key.d !== 'string') throw new TypeError('the signing key is not a private key');
  if (key.ap_use !== undefined && key.ap_use !== WEBHOOK_KEY_USE) {
    throw new TypeError(`the key is for "${key.ap_use}", not "${WEBHOOK_KEY_USE}"`);
  }
  const windowSeconds = options.windowSeconds ?? MAX_WINDOW_SECONDS;
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > MAX_WINDOW_SECONDS) {
    throw new TypeError(`windowSeconds must be an integer from 1 to ${MAX_WINDOW_SECONDS}`);
  }

  const target = canonicalizeTargetUri(request.url);
  const contentType =
    (request.headers && headerValue(request.headers, 'content-type')) ?? options.contentType ?? 'application/json';
  const digest = contentDigest(request.body);
  const created = Math.floor((options.clock ?? systemClock).now().getTime() / 1000);
  const params: SignatureParameters = {
    created,
    expires: created + windowSeconds,
    nonce: randomBytes(NONCE_BYTES).toString('base64url'),
    keyid: key.kid,
    alg,
    tag: WEBHOOK_SIGNING_TAG,
  };
  const parameters = new Map<string, string | number>(Object.entries(params));

  // The base reads content-type and content-digest from the headers as they will be sent.
  const headers = { 'content-type': contentType, 'content-digest': digest };
  const signatureBase = buildSignatureBase(
    { method: request.method, target, headers },
    REQUIRED_COMPONENTS,
    serializeSignatureParams(REQUIRED_COMPONENTS, parameters),
  );
  const signature = signBytes(alg, privateKeyFromJwk(key), Buffer.from(signatureBase, 'ascii'));

  return {
    headers: {
      'Content-Type': contentType,
      'Content-Digest': digest,
      'Signature-Input': serializeSignatureInput(SIGNATURE_LABEL, REQUIRED_COMPONENTS, parameters),
      Signature: serializeSignature(SIGNATURE_LABEL, signature),
    },
    params,
    signatureBase,
  };
}
