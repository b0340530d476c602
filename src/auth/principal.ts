import type { Role } from './accounts/sql.ts';

/** The organization a credential acts for, and the caller's standing in it. */
export interface Standing {
  organizationId: string;
  slug: string;
  role: Role;
  /** Paying member organization: sees `members_only` entries. */
  apiTier: boolean;
  /** The registry operator's own organization: may do admin-only actions. */
  registryAdmin: boolean;
}

/** Who is calling, once a credential has been checked. */
export interface Principal {
  /** `credential`: a token an agent's operator configured for that agent (see `ConfiguredCredential`). */
  kind: 'api_key' | 'user' | 'credential';
  /** Stable id of the caller: the key id, the user id, or `<agent>/<name>` of a configured token. */
  subject: string;
  /** Shown as the editor of revisions. */
  displayName: string;
  /** The organization the credential acts for; a user may belong to none. */
  organization?: Standing;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard on routes that take a credential; undefined when none was given. */
    principal?: Principal;
  }
}
