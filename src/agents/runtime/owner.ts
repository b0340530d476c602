import type { Principal } from '../../auth/index.ts';

/**
 * Whose records a caller sees (accounts, buys, activations): its organization's, whichever key or
 * member of it calls; a caller acting for no organization (a configured credential, a user
 * without one) has its own.
 */
export function ownerOf(principal: Principal): string {
  return principal.organization
    ? `org:${principal.organization.organizationId}`
    : `${principal.kind}:${principal.subject}`;
}

/** Who made a change, as its history records it. */
export function actorOf(principal: Principal): string {
  return `${principal.kind}:${principal.subject}`;
}
