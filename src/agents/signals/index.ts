import type { Tenant, TenantMount } from '../runtime/index.ts';
import {
  accountCapabilities,
  listAccountsTask,
  salesAccountResolver,
  syncAccountsTask,
} from '../sales/accounts/index.ts';
import { SellerGovernance, type SellerGovernanceOptions } from '../seller-governance/index.ts';
import { activationPass } from './activations/activation-pass.ts';
import type { PlatformAvailability, SignalsCatalog } from './catalog/index.ts';
import { offeringOf } from './offering.ts';
import { activateSignalTask, type PlatformSeat } from './tasks/activate-signal.ts';
import { getSignalsTask } from './tasks/get-signals.ts';

export {
  CatalogError,
  demoSignalsPath,
  loadSignalsCatalog,
  parseSignalsCatalog,
  type SignalsCatalog,
} from './catalog/index.ts';
export type { PlatformSeat } from './tasks/activate-signal.ts';

export interface SignalsAgentOptions extends TenantMount {
  catalog: SignalsCatalog;
  /** Buyers' accounts on platforms: a platform target naming an account must be one of the caller's. */
  seats?: readonly PlatformSeat[];
  /** Minutes every platform activation takes, instead of each platform's (a test deployment's short delay). */
  activationMinutes?: number;
  /** How often pending activations are looked at (default every second). */
  activationPollMs?: number;
  /**
   * Be a governance-aware seller (signal-marketplace): buyers register their governance agents
   * (sync_governance), and an activation on a governed account is approved by them first.
   */
  governance?: Pick<SellerGovernanceOptions, 'fetcher' | 'secret' | 'clock'>;
}

/**
 * The signals agent (agent-tasks spec, signals tasks): finds audience signals in its catalog for
 * a natural-language spec and activates them on platforms and agents.
 */
export function signalsAgent({
  catalog,
  base,
  path = '/signals',
  credentials,
  seats = [],
  activationMinutes,
  activationPollMs = 1000,
  governance: governing,
}: SignalsAgentOptions): Tenant {
  const offering = offeringOf(catalog);
  const view = {
    offering: () => offering,
    base,
    minutes: (availability: PlatformAvailability) => activationMinutes ?? availability.activation_minutes,
  };
  const providers = [
    ...new Set(
      catalog.signals.flatMap((s) => (s.signal_id.source === 'catalog' ? [s.signal_id.data_provider_domain] : [])),
    ),
  ].sort();
  const name = 'signals';
  // The deployment's one account book: the accounts a buyer declared here or at the sales agent.
  const governance =
    governing &&
    new SellerGovernance({
      ...governing,
      tenant: name,
      seller: () => `${base()}${path}/mcp`,
      resolveAccount: salesAccountResolver({ requireOperatorAuth: false }),
    });
  return {
    name,
    path,
    description:
      'Signals agent: find audience signals with a natural-language spec, then activate them on platforms and sales agents.',
    protocols: ['signals'],
    // Principals' own first-party segments beside the catalog's; a marketplace when activations
    // answer to the buyers' governance agents (sync_governance; sync_plans is the governance agent's).
    specialisms: ['signal-owned', ...(governance ? (['signal-marketplace'] as const) : [])],
    httpEnvelope: 'signals',
    credentials,
    passes: [activationPass(name, activationPollMs)],
    capabilities: () => ({
      // Implicit accounts, the deployment's one account book (sync_accounts here or at the sales
      // agent declares the same accounts). Signals never depend on one: the catalog is public.
      account: accountCapabilities({ requireOperatorAuth: false }),
      signals: {
        data_provider_domains: providers,
        // The targets it activates on: any agent (live at once) and these platforms (asynchronously).
        features: { catalog_signals: true, agent_destinations: true, platform_destinations: true },
        platforms: [...offering.platforms].sort(),
      },
    }),
    // Buyers register the accounts they buy for (sync_accounts) before they discover and activate,
    // as the protocol's marketplace storyboard does.
    tasks: [
      getSignalsTask(view),
      activateSignalTask(view, seats, governance),
      syncAccountsTask(),
      listAccountsTask(),
      ...(governance ? [governance.syncGovernanceTask()] : []),
    ],
  };
}
