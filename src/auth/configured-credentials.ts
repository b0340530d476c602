import { hash, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { organizationBySlug } from './accounts/sql.ts';
import type { NotifiedCache } from '../db/notified-cache.ts';
import type { Principal } from './principal.ts';

/**
 * A bearer token an agent's operator hands out (a partner's token, a public test credential),
 * accepted by that agent only, besides the registry's own API keys and access tokens.
 */
export interface ConfiguredCredential {
  /** The secret callers send as `Authorization: Bearer <token>`. */
  token: string;
  /** Names the caller in logs and as the owner of its tasks (`credential:<agent>/<name>`). */
  name: string;
  /** The organization (slug) the caller acts for here; none when absent. */
  organization?: string;
  /** Published for anyone to try the agent with (the test deployment's): the agent card says it exists. */
  public?: boolean;
}

export interface ConfiguredCredentials {
  /** The principal of the configured token `token` is; undefined when it is none of them. */
  match(token: string): Promise<Principal | undefined>;
}

/**
 * Compares a presented token with every configured one in constant time (SHA-256 of both, so
 * lengths do not show either, and no early exit), then gives the caller its principal, with its
 * organization's standing read through the credential cache.
 */
export function configuredCredentials(
  agent: string,
  credentials: readonly ConfiguredCredential[],
  db: Queryable,
  cache: NotifiedCache,
): ConfiguredCredentials {
  const digest = (value: string) => hash('sha256', value, 'buffer');
  const known = credentials.map((credential) => {
    if (credential.token.length < 16)
      throw new Error(`agent ${agent}: the configured credential "${credential.name}" is shorter than 16 characters`);
    return { credential, hash: digest(credential.token) };
  });
  return {
    async match(token) {
      if (known.length === 0) return undefined;
      const presented = digest(token);
      let found: ConfiguredCredential | undefined;
      for (const { credential, hash } of known) if (timingSafeEqual(hash, presented) && !found) found = credential;
      if (!found) return undefined;
      const principal: Principal = { kind: 'credential', subject: `${agent}/${found.name}`, displayName: found.name };
      if (!found.organization) return principal;
      const slug = found.organization;
      const organization = await cache.get(`organization:${slug}`, async () => {
        const row = await organizationBySlug(db, slug);
        return row
          ? {
              value: {
                organizationId: row.id,
                slug: row.slug,
                role: 'member' as const,
                apiTier: row.api_tier,
                registryAdmin: row.is_admin,
              },
            }
          : null;
      });
      // An organization that does not exist (any more) gives no standing, as for a user.
      return organization ? { ...principal, organization } : principal;
    },
  };
}
