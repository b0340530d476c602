/** Who is calling, once a credential has been checked. */
export interface Principal {
  kind: 'operator_token' | 'api_key' | 'user';
  /** Stable id of the caller (token name, key id, user id). */
  subject: string;
  /** Organization the credential acts for, when it has one. */
  organization?: string;
  /** Shown as the editor of revisions. */
  displayName: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard on routes that take a credential; undefined when none was given. */
    principal?: Principal;
  }
}
