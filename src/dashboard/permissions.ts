import type { MembershipRow, Role, ApiKeyRow } from '../auth/index.ts';

/** An admin key can do what an org admin can, so only org admins may mint one. */
export function rolesOffered(membership: MembershipRow): Role[] {
  return membership.role === 'admin' ? ['member', 'admin'] : ['member'];
}

/** Members clean up after themselves; org admins may revoke any key of their organization. */
export function mayRevoke(membership: MembershipRow, key: ApiKeyRow, userId: string): boolean {
  return key.organization_id === membership.organization_id && (membership.role === 'admin' || key.created_by === userId);
}
