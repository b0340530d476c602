import type { AgentTask } from '../../runtime/index.ts';
import type { SellerGovernance } from '../../seller-governance/index.ts';
import { acquireRightsTask } from './acquire-rights.ts';
import { creativeApprovalTask } from './creative-approval.ts';
import { getRightsTask } from './get-rights.ts';
import type { HeldOfferings } from './held-offerings.ts';
import type { Offering } from './roster.ts';
import { updateRightsTask } from './update-rights.ts';

export { rightsDecisionsPass } from './decisions.ts';
export { revokeGrant, type Revocation } from './revoke.ts';
export { HeldOfferings } from './held-offerings.ts';
export { demoRoster, type Offering } from './roster.ts';

/**
 * The rights-licensing tasks over a roster; `agentUrl` names this agent in the constraints it
 * issues; `held` says which exclusive offerings are taken; with `governance`, a licence on a
 * governed account is approved by its governance agent.
 */
export function rightsTasks(
  roster: readonly Offering[],
  held: HeldOfferings,
  agentUrl: () => string,
  governance?: SellerGovernance,
): AgentTask[] {
  return [
    getRightsTask(roster, held),
    acquireRightsTask(roster, agentUrl, governance),
    updateRightsTask(roster, agentUrl),
    creativeApprovalTask(roster),
  ];
}

/** What get_ap_capabilities says of the roster (brand.right_types, brand.available_uses). */
export function rosterCapabilities(roster: readonly Offering[]) {
  return {
    right_types: [...new Set(roster.map((o) => o.right_type))],
    available_uses: [...new Set(roster.flatMap((o) => o.uses))],
  };
}
