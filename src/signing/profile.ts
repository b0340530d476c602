/**
 * The constants of the "ap/webhook-signing/v1" profile in one place, so the signer and the verifier
 * cannot drift apart on what a conformant webhook signature is.
 */

/** The `tag` parameter; it keeps a request signature from being replayed as a webhook. */
export const WEBHOOK_SIGNING_TAG = 'ap/webhook-signing/v1';

/** The only label the verifier reads; signers name their signature this by convention. */
export const SIGNATURE_LABEL = 'sig1';

/** The JWK `ap_use` a webhook-signing key must carry. */
export const WEBHOOK_KEY_USE = 'webhook-signing';

/**
 * Covered components every webhook signature must have, in the order the signer emits them. The
 * body is the event, so `content-digest` is required with no opt-out.
 */
export const REQUIRED_COMPONENTS = ['@method', '@target-uri', '@authority', 'content-type', 'content-digest'] as const;

/** The signature algorithms (RFC 9421 names) the profile allows. */
export const ALLOWED_ALGORITHMS = ['ed25519', 'ecdsa-p256-sha256'] as const;
export type SignatureAlgorithm = (typeof ALLOWED_ALGORITHMS)[number];

/** The longest `expires - created` the profile accepts. */
export const MAX_WINDOW_SECONDS = 300;

/** The default tolerance for clock differences between signer and verifier. */
export const DEFAULT_MAX_SKEW_SECONDS = 60;

/** The parameters every signature must carry (RFC 9421 §2.3), and their serialized order. */
export const REQUIRED_PARAMETERS = ['created', 'expires', 'nonce', 'keyid', 'alg', 'tag'] as const;

export function isAllowedAlgorithm(alg: string): alg is SignatureAlgorithm {
  return (ALLOWED_ALGORITHMS as readonly string[]).includes(alg);
}
