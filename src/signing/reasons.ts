/**
 * The webhook verifier's reason codes. They go on the wire (`WWW-Authenticate: Signature
 * error="…"`) and the conformance vectors grade them byte for byte, so the set is closed: a new
 * failure mode maps onto one of these or the profile changes first.
 */
export const webhookSignatureErrors = [
  'webhook_signature_header_malformed',
  'webhook_signature_params_incomplete',
  'webhook_signature_tag_invalid',
  'webhook_signature_alg_not_allowed',
  'webhook_signature_window_invalid',
  'webhook_signature_components_incomplete',
  'webhook_signature_key_unknown',
  'webhook_signature_key_purpose_invalid',
  'webhook_signature_key_revoked',
  'webhook_signature_revocation_stale',
  'webhook_signature_rate_abuse',
  'webhook_signature_invalid',
  'webhook_signature_digest_mismatch',
  'webhook_signature_replayed',
] as const;

export type WebhookSignatureError = (typeof webhookSignatureErrors)[number];

/**
 * The checklist step (README "verifier checklist") each code is raised at. Informational only:
 * grading is on the code, but the step says which check an operator should look at.
 */
export const webhookSignatureErrorStep = {
  webhook_signature_header_malformed: 1,
  webhook_signature_params_incomplete: 2,
  webhook_signature_tag_invalid: 3,
  webhook_signature_alg_not_allowed: 4,
  webhook_signature_window_invalid: 5,
  webhook_signature_components_incomplete: 6,
  webhook_signature_key_unknown: 7,
  webhook_signature_key_purpose_invalid: 8,
  webhook_signature_key_revoked: 9,
  webhook_signature_revocation_stale: 9,
  webhook_signature_rate_abuse: 9,
  webhook_signature_invalid: 10,
  webhook_signature_digest_mismatch: 11,
  webhook_signature_replayed: 12,
} as const satisfies Record<WebhookSignatureError, number>;
