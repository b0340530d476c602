import type { Principal } from '../../auth/index.ts';

export const visibilities = ['public', 'members_only', 'private'] as const;
export type Visibility = (typeof visibilities)[number];

/** Who may see what (spec section 1): anonymous callers the public catalog; API-tier members also members_only; an agent's own organization also its private ones; registry admins everything. */
export interface Viewer {
  membersOnly: boolean;
  organizationId: string | null;
  everything: boolean;
}

export function viewerOf(principal: Principal | undefined): Viewer {
  const org = principal?.organization;
  return {
    membersOnly: org?.apiTier === true || org?.registryAdmin === true,
    organizationId: org?.organizationId ?? null,
    everything: org?.registryAdmin === true,
  };
}

export function canSee(viewer: Viewer, agent: { visibility: Visibility; organization_id: string }): boolean {
  return (
    viewer.everything ||
    agent.visibility === 'public' ||
    (agent.visibility === 'members_only' && viewer.membersOnly) ||
    agent.organization_id === viewer.organizationId
  );
}
