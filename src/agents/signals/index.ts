import type { Tenant, TenantMount } from '../runtime/index.ts';
import { accountCapabilities, listAccountsTask, syncAccountsTask } from '../sales/accounts/index.ts';
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
  return {
    name,
    path,
    description:
      'Signals agent: find audience signals with a natural-language spec, then activate them on platforms and sales agents.',
    protocols: ['signals'],
    // Principals' own first-party segments beside the catalog's. Not signal-marketplace: its
    // storyboard registers governance agents (sync_governance) and plans (sync_plans) that
    // activations then answer to; that comes with the governance agent.
    specialisms: ['signal-owned'],
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
    tasks: [getSignalsTask(view), activateSignalTask(view, seats), syncAccountsTask(), listAccountsTask()],
  };
}
