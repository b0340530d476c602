import type { Database } from '../db/database.ts';
import { LOCAL_ISSUER, userPrincipal } from './accounts/service.ts';
import { upsertExternalUser, userBySubject } from './accounts/sql.ts';
import { authenticateKey } from './api-keys/service.ts';
import type { Principal } from './principal.ts';
import { grantIsLive } from './oauth/sql.ts';
import type { TokenVerifier } from './tokens/verifier.ts';
import { randomUUID } from 'node:crypto';

/** Turns a bearer credential into a principal, or null when it is not valid. */
export interface Authenticator {
  /** `organization` is the organization a user asks to act for (the `AP-Organization` header). */
  authenticate(credential: string, options?: { organization?: string }): Promise<Principal | null>;
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Both credential forms of the spec: a JWT access token (a user) or an organization API key.
 * `tokens` resolves lazily because the embedded issuer is known only once the server listens.
 */
export function credentialAuthenticator(db: Database, tokens: () => Promise<{ verifier: TokenVerifier; local: boolean }>): Authenticator {
  return {
    async authenticate(credential, options = {}) {
      if (!JWT.test(credential)) return authenticateKey(db, credential);
      const { verifier, local } = await tokens();
      const claims = await verifier.verify(credential);
      if (!claims) return null;
      // Our own tokens die with their grant (revoked, replayed code, expired), not only at `exp`.
      if (local && !(claims.grantId && (await grantIsLive(db, claims.grantId)))) return null;
      // Local users' subject is their id; an external issuer's users are recorded on first sight.
      const user = local
        ? await userBySubject(db, LOCAL_ISSUER, claims.subject)
        : await upsertExternalUser(db, {
            id: randomUUID(),
            issuer: claims.issuer,
            subject: claims.subject,
            email: claims.email ?? null,
            display_name: claims.name ?? claims.email ?? claims.subject,
            password_hash: null,
          });
      return user ? userPrincipal(db, user, options.organization) : null;
    },
  };
}
