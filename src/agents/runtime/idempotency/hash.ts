import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * SHA-256 of the RFC 8785 canonical JSON of the arguments, without `idempotency_key`, `context`
 * (the caller's correlation data, which a retry may carry anew) and push-notification
 * credentials, which a client may rotate between retries of one request.
 */
export function payloadHash(args: Record<string, unknown>): string {
  const { idempotency_key: _key, context: _context, ...rest } = args;
  const push = rest['push_notification_config'];
  if (push && typeof push === 'object' && !Array.isArray(push)) {
    const { authentication, ...config } = push as Record<string, unknown>;
    if (authentication && typeof authentication === 'object' && !Array.isArray(authentication)) {
      const { credentials: _credentials, ...scheme } = authentication as Record<string, unknown>;
      rest['push_notification_config'] = { ...config, authentication: scheme };
    }
  }
  return createHash('sha256')
    .update(canonicalize(rest) ?? '')
    .digest('hex');
}
