import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { LOCAL_ISSUER, userPrincipal } from './accounts/service.ts';
import { upsertExternalUser, userBySubject } from './accounts/sql.ts';
import { hashKey } from './api-keys/key-format.ts';
import { keyUseRecorder, verifyKey } from './api-keys/service.ts';
import type { NotifiedCache } from '../db/notified-cache.ts';
import type { Principal } from './principal.ts';
import { grantExpiry } from './oauth/sql.ts';
import type { TokenVerifier } from './tokens/verifier.ts';

export interface AuthenticateOptions {
  /** The organization a user asks to act for (the `AP-Organization` header). */
  organization?: string;
  /** The resources an access token must be meant for (its audience); the registry's own when absent. */
  audiences?: readonly string[];
}

/** Turns a bearer credential into a principal, or null when it is not valid. */
export interface Authenticator {
  authenticate(credential: string, options?: AuthenticateOptions): Promise<Principal | null>;
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Both credential forms of the spec: a JWT access token (a user) or an organization API key.
 * `tokens` resolves lazily because the embedded issuer is known only once the server listens.
 * What the database says about a credential is kept in `cache`, which sees every change to it
 * as soon as the database does (see `NotifiedCache`); signatures and expiry are checked on
 * every call.
 */
export function credentialAuthenticator(
  db: Database,
  tokens: () => Promise<{ verifier: TokenVerifier; local: boolean }>,
  cache: NotifiedCache,
  now: () => number,
): Authenticator {
  const recordUse = keyUseRecorder(db, now);
  return {
    async authenticate(credential, options = {}) {
      if (!JWT.test(credential)) {
        // Keyed by the key's hash: a hit proves the credential as the stored hash would.
        const hash = hashKey(credential);
        const key = await cache.get(`key:${hash.toString('base64url')}`, async () => {
          const verified = await verifyKey(db, credential, hash);
          return verified && { value: verified };
        });
        if (key) recordUse(key.keyId);
        return key?.principal ?? null;
      }
      const { verifier, local } = await tokens();
      const claims = await verifier.verify(credential, options.audiences);
      if (!claims) return null;
      const key = JSON.stringify([
        'jwt',
        claims.issuer,
        claims.subject,
        claims.grantId ?? null,
        claims.email ?? null,
        claims.name ?? null,
        options.organization ?? null,
      ]);
      return cache.get(key, async () => {
        // Our own tokens die with their grant (revoked, replayed code, expired), not only at `exp`.
        const expiry = local && claims.grantId ? await grantExpiry(db, claims.grantId) : null;
        if (local && (!claims.grantId || expiry === undefined)) return null;
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
        if (!user) return null;
        return {
          value: await userPrincipal(db, user, options.organization),
          ...(expiry ? { until: expiry.getTime() } : {}),
        };
      });
    },
  };
}
