import { type Tenant, type TenantMount } from '../runtime/index.ts';
import {
  accountCapabilities,
  listAccountsTask,
  salesAccountResolver,
  syncAccountsTask,
} from '../sales/accounts/index.ts';
import { SellerGovernance, type SellerGovernanceOptions } from '../seller-governance/index.ts';
import { getBrandIdentityTask, type BrandRecords } from './identity/get-brand-identity.ts';
import {
  demoRoster,
  HeldOfferings,
  rightsDecisionsPass,
  rightsTasks,
  rosterCapabilities,
  type Offering,
} from './rights/index.ts';

export type { BrandRecords } from './identity/get-brand-identity.ts';
export { revokeGrant, type Revocation } from './rights/index.ts';

/** The tenant's name: its webhooks are queued under it. */
export const brandTenant = 'brand';

export interface BrandAgentOptions extends TenantMount {
  /** The registry's brand records, and who has rights to a brand. */
  brands: BrandRecords;
  /** The rights it licenses (the demo roster unless given). */
  roster?: readonly Offering[];
  /** How often the holders' pending reviews are looked at (default every 30 seconds). */
  decisionsMs?: number;
  /**
   * License under campaign governance (brand-rights): buyers register their governance agents
   * (sync_governance), and a licence on a governed account is approved by them first.
   */
  governance?: Pick<SellerGovernanceOptions, 'fetcher' | 'secret' | 'clock'>;
}

/**
 * The brand agent: brand identity as the deployment's registry records it, so its answers are the
 * registry's resolved truth for every brand the registry knows; and the licensing of its roster's
 * rights (talent, characters, brand IP, music, stock media).
 */
export function brandAgent({
  base,
  path = '/brand',
  credentials,
  brands,
  roster = demoRoster,
  decisionsMs = 30_000,
  governance: governing,
}: BrandAgentOptions): Tenant {
  const name = brandTenant;
  const agentUrl = () => `${base()}${path}/mcp`;
  const held = new HeldOfferings(roster.filter((o) => o.exclusive).map((o) => o.rights_id));
  // The deployment's one account book: the accounts a buyer declared here or at the sales agent.
  const governance =
    governing &&
    new SellerGovernance({
      ...governing,
      tenant: name,
      seller: agentUrl,
      resolveAccount: salesAccountResolver({ requireOperatorAuth: false }),
    });
  return {
    name,
    path,
    description:
      'Brand agent: brand identity (house, names, logos, colours, fonts, tone) from the registry’s own brand records, and licensing of talent, characters, brand IP, music and stock media.',
    protocols: ['brand'],
    // brand-rights' storyboard registers accounts and their governance before it licenses.
    specialisms: governance ? ['brand-rights'] : [],
    credentials,
    passes: [rightsDecisionsPass(name, roster, agentUrl, decisionsMs)],
    start: async (deps) => void (await Promise.all([held.start(deps), brands.start?.()])),
    stop: async () => void (await Promise.all([held.stop(), brands.stop?.()])),
    capabilities: () => ({
      account: accountCapabilities({ requireOperatorAuth: false }),
      brand: {
        rights: true,
        ...rosterCapabilities(roster),
        generation_providers: [...new Set(roster.map((o) => o.provider))],
        description: 'Brand identity from the registry’s records; rights licensing from the agent’s roster.',
      },
      // The rights lifecycle is experimental in 3.0: an agent that serves it says so.
      experimental_features: ['brand.rights_lifecycle'],
    }),
    tasks: [
      getBrandIdentityTask(brands),
      ...rightsTasks(roster, held, agentUrl, governance),
      syncAccountsTask(),
      listAccountsTask(),
      ...(governance ? [governance.syncGovernanceTask()] : []),
    ],
  };
}
