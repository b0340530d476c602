import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal } from './principal.ts';

/**
 * Turns a bearer credential into a principal, or null when it is not valid. The identity layer
 * (organization API keys, OAuth user tokens) provides the full implementation; until then the
 * operator token below is the only credential.
 */
export interface Authenticator {
  authenticate(credential: string): Promise<Principal | null>;
}

/**
 * Accepts one static operator token (`AP_OPERATOR_TOKEN`). With no token configured it accepts
 * nothing, so credential-required endpoints are closed by default.
 */
export function operatorTokenAuthenticator(token: string | undefined): Authenticator {
  const expected = token ? digest(token) : undefined;
  return {
    async authenticate(credential) {
      if (!expected || !timingSafeEqual(digest(credential), expected)) return null;
      return { kind: 'operator_token', subject: 'operator', displayName: 'operator' };
    },
  };
}

// Comparing digests keeps the comparison constant-time whatever the credential's length.
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
