import type { MembershipRow, Principal, Role, ApiKeyRow } from '../auth/index.ts';
import type { Session } from './sessions.ts';

/** An admin key can do what an org admin can, so only org admins may mint one. */
export function rolesOffered(membership: MembershipRow): Role[] {
  return membership.role === 'admin' ? ['member', 'admin'] : ['member'];
}

/** Members clean up after themselves; org admins may revoke any key of their organization. */
export function mayRevoke(membership: MembershipRow, key: ApiKeyRow, userId: string): boolean {
  return (
    key.organization_id === membership.organization_id && (membership.role === 'admin' || key.created_by === userId)
  );
}

/**
 * The signed-in user acting for one of their organizations, with the standing the API gives their
 * token for it (the `AP-Organization` header). Agents are managed under these rules, the API's:
 * any member may enroll, change or remove the organization's agents, as a member key may, and
 * a member can mint one here; a stricter page would only send them to the API.
 */
export function actingFor(session: Session, membership: MembershipRow): Principal {
  return {
    kind: 'user',
    subject: session.userId,
    displayName: session.displayName,
    organization: {
      organizationId: membership.organization_id,
      slug: membership.slug,
      role: membership.role,
      apiTier: membership.api_tier,
      registryAdmin: membership.is_admin,
    },
  };
}
