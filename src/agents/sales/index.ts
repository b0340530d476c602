import { listCreativeFormatsTask, standardFormats, standardFormatsAt, type Format } from '../formats/index.ts';
import type { Tenant, TenantMount } from '../runtime/index.ts';
import { SellerGovernance, type DeliveryOf, type SellerGovernanceOptions } from '../seller-governance/index.ts';
import { accountCapabilities, listAccountsTask, salesAccountResolver, syncAccountsTask } from './accounts/index.ts';
import { syncCatalogsTask } from './buyer-catalogs/index.ts';
import { logEventTask, providePerformanceFeedbackTask, syncEventSourcesTask } from './conversions/index.ts';
import type { Catalog, Product, PublisherPropertySelector } from './catalog/index.ts';
import { libraryForBuys, listCreativesTask, syncCreativesTask } from './creatives/index.ts';
import { deliveredSoFar, getMediaBuyArtifactsTask, getMediaBuyDeliveryTask, reportingPass } from './delivery/index.ts';
import {
  assignablePackages,
  createMediaBuyTask,
  canMove,
  flightPass,
  getMediaBuysTask,
  lockMediaBuy,
  noForcedArms,
  recordCreativesAssigned,
  setMediaBuyStatus,
  updateMediaBuyTask,
} from './media-buys/index.ts';
import { salesBuildCreativeTask, type CreativeBuilding } from './creative-building.ts';
import { catalogShelf, offeringOf, type Shelf } from './offering.ts';
import type { PropertyListReader } from './property-list-filter.ts';
import { proposalExpiryPass } from './proposals/index.ts';
import { getProductsTask } from './tasks/get-products.ts';
import {
  complianceTesting,
  seededShelf,
  takeForcedArm,
  testControllerTask,
  type TestControllerOptions,
} from './test-controller/index.ts';

export { accountHistory, setAccountStatus } from './accounts/index.ts';
export { CatalogError, demoCatalogPath, loadCatalogFile, parseCatalog, type Catalog } from './catalog/index.ts';

export interface SalesAgentOptions extends TenantMount {
  catalog: Catalog;
  /** Serve comply_test_controller to callers' sandbox accounts (default true). */
  testController?: boolean;
  /**
   * Explicit accounts (get_ap_capabilities `account.require_operator_auth: true`): a natural key
   * not declared with sync_accounts is ACCOUNT_NOT_FOUND. Default false: implicit accounts, where
   * such a key is the declaration itself.
   */
  requireOperatorAuth?: boolean;
  /**
   * Serve build_creative with the deployment's creative agent (its formats, assets and previews):
   * with it the agent is catalog-driven (sales-catalog-driven needs build_creative); without it, not.
   */
  creativeBuilding?: CreativeBuilding;
  /**
   * Be a governance-aware seller: buyers register their governance agents (sync_governance), and a
   * buy on a governed account is checked with them first and its delivery reported to them.
   */
  governance?: Pick<SellerGovernanceOptions, 'fetcher' | 'secret' | 'clock'>;
  /** Reads the buyers' property lists get_products references (the deployment's governance agent's); none read without it. */
  propertyLists?: PropertyListReader;
  /** The deployment's governance agent's plan seeding, for the test controller's seed_plan. */
  seedPlan?: TestControllerOptions['seedPlan'];
}

/**
 * The sales agent (agent-tasks spec, media-buy tasks): sells the products of its catalog. Its
 * creative formats are the standard ones, defined by this deployment's creative agent at
 * `<base>/creative/mcp`.
 */
export function salesAgent({
  catalog,
  base,
  path = '/sales',
  credentials,
  testController = true,
  requireOperatorAuth = false,
  creativeBuilding,
  governance: governing,
  seedPlan,
  propertyLists,
}: SalesAgentOptions): Tenant {
  const creativeAgentUrl = () => `${base()}/creative/mcp`;
  const standardIds = new Set(standardFormats('').map((f) => f.format_id.id));
  const formats = () => standardFormatsAt(creativeAgentUrl());
  const offering = offeringOf(catalog, base, standardIds, formats);
  // What each call sees: the catalog, and a sandbox account's own seeds when the controller runs.
  const shelf = testController ? seededShelf(offering, () => `${base()}${path}/mcp`) : catalogShelf(offering);
  const library = libraryForBuys({ shelf });
  const resolveAccount = salesAccountResolver({ requireOperatorAuth });
  const governance =
    governing &&
    new SellerGovernance({ ...governing, tenant: 'sales', seller: () => `${base()}${path}/mcp`, resolveAccount });
  return {
    name: 'sales',
    path,
    description: 'Sales agent: discover products with a brief, then buy media and traffic creatives.',
    protocols: ['media_buy'],
    // Guaranteed buys (an exclusive takeover waits for approval), auction-priced ones, proposals
    // (a brief's media plan, bought by proposal_id), and catalogs with conversion tracking when it
    // can build creatives too.
    specialisms: [
      'sales-guaranteed',
      'sales-non-guaranteed',
      'sales-proposal-mode',
      ...(creativeBuilding ? (['sales-catalog-driven'] as const) : []),
      ...(governance ? (['governance-aware-seller'] as const) : []),
    ],
    credentials,
    sells: () => soldSelectors(offering().products),
    resolveAccount,
    passes: [
      flightPass(),
      reportingPass(shelf),
      proposalExpiryPass(),
      ...(governance ? [governance.deliveryPass(governedBuys(shelf))] : []),
    ],
    capabilities: () => ({
      // Implicit accounts (unless configured otherwise): a buyer declares its brands and operators with sync_accounts, or by naming them.
      account: accountCapabilities({ requireOperatorAuth }),
      media_buy: {
        supported_pricing_models: [
          ...new Set(offering().products.flatMap((p) => p.pricing_options.map((o) => o.pricing_model))),
        ],
        // Creatives may come inline with a buy's packages; get_products reads the deployment's
        // governance agent's property lists; sync_catalogs reviews items.
        features: {
          inline_creative_management: true,
          property_list_filtering: propertyLists !== undefined,
          catalog_management: true,
        },
        // Besides polling get_media_buy_delivery: reports pushed to a buy's reporting_webhook.
        reporting_delivery_methods: ['webhook'],
        // sync_event_sources and log_event: one source's events counted once by event_id, none across sources.
        conversion_tracking: { multi_source_event_dedup: false },
        // get_media_buy_artifacts, without a local model of our own (every local_verdict unevaluated).
        content_standards: { supports_local_evaluation: false, supports_webhook_delivery: false },
      },
      // Declares comply_test_controller; list_scenarios names the rest of what it does.
      ...(testController ? { compliance_testing: complianceTesting() } : {}),
    }),
    tasks: [
      getProductsTask(shelf, propertyLists),
      listCreativeFormatsTask({
        formats: async (ctx) => {
          const { formats: all, products, seededFormats } = await shelf(ctx.db, ctx.account);
          return [...new Set([...formatsInUse(all, products), ...seededFormats])];
        },
        creativeAgents: () => [{ agent_url: creativeAgentUrl() }],
      }),
      syncAccountsTask(),
      listAccountsTask(),
      ...(governance ? [governance.syncGovernanceTask()] : []),
      // Without the controller, a directive left from a run with it is never used.
      createMediaBuyTask(shelf, library, testController ? takeForcedArm : noForcedArms, governance),
      updateMediaBuyTask(shelf, library, governance),
      getMediaBuysTask(shelf),
      getMediaBuyDeliveryTask(shelf),
      getMediaBuyArtifactsTask(shelf),
      syncCreativesTask({ shelf, buys: { assignablePackages, recordCreativesAssigned } }),
      listCreativesTask(),
      syncCatalogsTask(),
      syncEventSourcesTask(),
      logEventTask(),
      providePerformanceFeedbackTask(),
      ...(creativeBuilding ? [salesBuildCreativeTask(base, creativeBuilding)] : []),
      ...(testController
        ? [testControllerTask({ shelf, agentUrl: () => `${base()}${path}/mcp`, ...(seedPlan ? { seedPlan } : {}) })]
        : []),
    ],
  };
}

/**
 * A governed buy's delivery as its governance agent is told of it (the spend get_media_buy_delivery
 * totals), and the seller's stop when a delivery check is denied: the buy is paused.
 */
function governedBuys(shelf: Shelf): DeliveryOf {
  return {
    spendOf: (db, { owner, action_id }, now) => deliveredSoFar(db, shelf, owner, action_id, now),
    async halt(tx, { owner, action_id }, reason, now) {
      const buy = await lockMediaBuy(tx, owner, action_id);
      if (buy && canMove(buy.status, 'paused', 'governance'))
        await setMediaBuyStatus(tx, buy, 'paused', { reason, actor: 'seller', now });
    },
  };
}

/** The formats some product takes, as the products name them (the same format_id objects), in the formats' order. */
function formatsInUse(formats: readonly Format[], products: readonly Product[]): Format[] {
  const used = new Set(products.flatMap((p) => p.format_ids.map((f) => `${f.agent_url} ${f.id}`)));
  return formats.filter((f) => used.has(`${f.format_id.agent_url} ${f.format_id.id}`));
}

/** Every selector of every product, once each. */
function soldSelectors(products: readonly Product[]): PublisherPropertySelector[] {
  const seen = new Map<string, PublisherPropertySelector>();
  for (const selector of products.flatMap((p) => p.publisher_properties)) seen.set(JSON.stringify(selector), selector);
  return [...seen.values()];
}
