import type { AuthorizationIndex } from '../../registry/lookups/index.ts';
import type { KeySettings } from '../runtime/keys/store.ts';
import { ownerOf, type Tenant, type TenantMount } from '../runtime/index.ts';
import { getPlanAuditLogsTask } from './audit/get-plan-audit-logs.ts';
import { LogWriter } from './audit/log-writer.ts';
import { checkGovernanceTask } from './checks/check-governance.ts';
import { IntentReads } from './checks/intent-reads.ts';
import { reportPlanOutcomeTask } from './outcomes/report-plan-outcome.ts';
import { demoPlansPass } from './plans/demo-plans.ts';
import { syncPlansTask } from './plans/sync-plans.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { collectionListTasks, collectionLists } from './collection-lists/index.ts';
import { contentStandardsTasks, demoStandardsPass, type RegistryPolicies } from './content-standards/index.ts';
import { listChangesPass } from './lists/index.ts';
import { propertyListTasks, propertyLists } from './property-lists/index.ts';
import { TokenKeys } from './tokens/token-keys.ts';

export { sharedLists } from './property-lists/index.ts';
export type { RegistryPolicies } from './content-standards/index.ts';

export {
  GovernanceTokenError,
  governanceTokenType,
  verifyGovernanceToken,
  type GovernanceClaims,
  type TokenPhase,
  type VerifyOptions,
} from './tokens/governance-token.ts';
export { GovernanceUnavailableError, IssuerKeys } from './tokens/issuer-keys.ts';
export { planOwnerOf, seedPlan } from './plans/seed-plan.ts';

export interface GovernanceAgentOptions extends TenantMount {
  /** The deployment's signing keys: approvals are signed with its governance key, published in its JWKS. */
  keys: KeySettings;
  /** The configured credential (by name) whose caller finds the demo plans synced for it. */
  demoFor?: string;
  /** The registry's authorization index as it stands now, which property and collection lists resolve from; no lists without it. */
  authorization?: () => AuthorizationIndex;
  /** How often lists with a webhook are looked at for changes (default every second). */
  listChangesMs?: number;
  /** Reads the pages content artifacts name by URL (the SSRF-safe client). */
  fetcher?: SafeFetch;
  /** The registry's policies, which content standards name by `registry_policy_ids`. */
  registryPolicies?: RegistryPolicies;
}

/**
 * The governance agent (campaign governance): buyers register campaign plans, and both the
 * buyer's orchestrator (intent) and the sellers (execution) check every spend against them; the
 * agent tracks the budget committed, signs each approval so a seller can verify it offline against
 * the deployment's JWKS, and keeps the audit log.
 */
export function governanceAgent({
  base,
  path = '/governance',
  credentials,
  keys,
  demoFor,
  authorization,
  listChangesMs = 1000,
  fetcher,
  registryPolicies,
}: GovernanceAgentOptions): Tenant {
  const tokens = new TokenKeys(keys, () => `${base()}${path}/mcp`);
  const reads = new IntentReads();
  const name = 'governance';
  // A configured credential's caller is its own owner (runtime/owner.ts), named after this agent.
  const demoOwner = demoFor && ownerOf({ kind: 'credential', subject: `${name}/${demoFor}`, displayName: demoFor });
  return {
    name,
    path,
    description:
      'Governance agent: register campaign plans, check every spend against them (signed approvals, budget authority, delivery drift) and read the audit log; property and collection lists resolved from the registry; content standards evaluated locally.',
    protocols: ['governance'],
    specialisms: [
      'governance-spend-authority',
      'governance-delivery-monitor',
      'content-standards',
      ...(authorization ? (['property-lists', 'collection-lists'] as const) : []),
    ],
    credentials,
    passes: [
      ...(demoOwner ? [demoPlansPass(demoOwner), demoStandardsPass(demoOwner)] : []),
      ...(authorization
        ? [listChangesPass(name, [propertyLists, collectionLists], authorization, tokens, listChangesMs)]
        : []),
    ],
    capabilities: () => ({
      // No aggregation_window_days: spend is aggregated over a plan's whole life, not a trailing window.
      governance: {},
      // Campaign governance is experimental in 3.0: an agent that serves it says so.
      experimental_features: ['governance.campaign'],
    }),
    tasks: [
      syncPlansTask(reads),
      checkGovernanceTask({ keys: tokens, reads, log: new LogWriter() }),
      reportPlanOutcomeTask(tokens, reads),
      getPlanAuditLogsTask(tokens),
      ...(authorization ? [...propertyListTasks(authorization), ...collectionListTasks(authorization)] : []),
      ...contentStandardsTasks({ fetcher, registryPolicies }),
    ],
  };
}
