/**
 * RFC 9421 HTTP Message Signatures for webhooks, profile "ap/webhook-signing/v1". The public surface
 * is here so callers depend on the profile, not on how it is split into files.
 */
export {
  signWebhook,
  type OutgoingWebhook,
  type SignWebhookOptions,
  type SignedWebhook,
  type SignatureParameters,
  type WebhookSigningKey,
} from './signer.ts';
export {
  createWebhookVerifier,
  type IncomingWebhook,
  type WebhookRejected,
  type WebhookVerification,
  type WebhookVerified,
  type WebhookVerifier,
  type WebhookVerifierOptions,
} from './verifier.ts';
export { webhookSignatureErrors, webhookSignatureErrorStep, type WebhookSignatureError } from './reasons.ts';
export {
  InMemoryReplayCache,
  type InMemoryReplayCacheOptions,
  type ReplayCache,
  type ReplayRecordOutcome,
} from './replay-cache.ts';
export {
  InMemoryRevocationList,
  isRevocationStale,
  type RevocationFreshness,
  type RevocationList,
} from './revocation.ts';
export { canonicalAuthority, canonicalizeTargetUri, TargetUriError, type CanonicalTarget } from './target-uri.ts';
export { contentDigest, contentDigestMatches, type Body } from './content-digest.ts';
export {
  buildSignatureBase,
  headerValue,
  SignatureBaseError,
  type BaseMessage,
  type HeaderInput,
} from './signature-base.ts';
export {
  parseSignature,
  parseSignatureInput,
  serializeSignatureParams,
  SignatureFieldError,
  type SignatureInputMember,
} from './signature-fields.ts';
export type { WebhookJwk } from './algorithms.ts';
export {
  ALLOWED_ALGORITHMS,
  DEFAULT_MAX_SKEW_SECONDS,
  MAX_WINDOW_SECONDS,
  REQUIRED_COMPONENTS,
  SIGNATURE_LABEL,
  WEBHOOK_KEY_USE,
  WEBHOOK_SIGNING_TAG,
  type SignatureAlgorithm,
} from './profile.ts';
