import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { AgentResources } from './agent-resources.ts';
import type { Authenticator } from './authenticator.ts';
import { guardRoutes } from './guard.ts';
import { createIdentity } from './identity.ts';

export interface AuthOptions {
  ctx: AppContext;
  /** Replaces the credential check built from the configuration (tests). */
  authenticator?: Authenticator;
}

/**
 * Who may call: the guard that enforces every route's `config.auth` and `config.access`, the OAuth
 * authorization server (or trust in an external issuer) and the bootstrap admin key. App-wide
 * plumbing, not an encapsulated plugin: call it on the root before any route that asks for a
 * credential (the guard attaches to routes as they register, in every context made after it).
 * Returns what it offers the agents: where each declares itself a protected resource.
 */
export async function registerAuth(app: FastifyInstance, { ctx, authenticator }: AuthOptions): Promise<AgentResources> {
  const identity = createIdentity(app, ctx);
  guardRoutes(app, authenticator ?? identity.authenticator, identity.resourceMetadataUrl, identity.agents);
  await identity.registerRoutes();
  return identity.agents;
}

export type { AgentResources } from './agent-resources.ts';
export type { Authenticator } from './authenticator.ts';
export type { ConfiguredCredential } from './configured-credentials.ts';
export type { Principal, Standing } from './principal.ts';
export { rateLimitCaller, signInLimit } from './limits.ts';
export {
  addMember,
  createLocalUser,
  createOrganization,
  listOrganizations,
  membershipsOf,
  organizationBySlug,
  signIn,
  type OrganizationRow,
  type Role,
  type UserRow,
} from './accounts/service.ts';
export type { MembershipRow } from './accounts/sql.ts';
export { createAdminKey, createKey, keyById, listKeys, revokeKey, type ApiKeyRow } from './api-keys/service.ts';
export { authLimits, authSettings, type AuthLimits, type AuthSettings, type IdentityConfig } from './settings.ts';
