/**
 * A signal as the signals agent's catalog holds it: the fields of a get_signals `signals[]` item
 * that do not depend on the request (the published schema stays their authority; every entry is
 * validated against it at load), plus what only the catalog knows: where it is sold, who may see
 * it, and the words and taxonomy that rank it. Deployments depend on the request and on
 * activations, so they are not here.
 */

/** The eight families a planner browses by; every signal belongs to one. */
export const signalCategories = [
  'demographics',
  'interests',
  'in_market',
  'life_events',
  'geography',
  'behaviours',
  'b2b',
  'contextual',
] as const;
export type SignalCategory = (typeof signalCategories)[number];

export const signalTypes = ['marketplace', 'custom', 'owned'] as const;
export type SignalType = (typeof signalTypes)[number];

/** core/signal-id.json. An agent-native id's `agent_url` may be a path on this deployment (`/signals/mcp`) in the file. */
export type SignalId =
  | { readonly source: 'catalog'; readonly data_provider_domain: string; readonly id: string }
  | { readonly source: 'agent'; readonly agent_url: string; readonly id: string };

/** core/vendor-pricing-option.json; the catalog's marketplace signals are priced by `cpm`. */
export interface SignalPricingOption {
  readonly pricing_option_id: string;
  readonly model: 'cpm' | 'percent_of_media' | 'flat_fee' | 'per_unit' | 'custom';
  readonly currency?: string;
  readonly cpm?: number;
  readonly percent?: number;
  readonly max_cpm?: number;
  readonly [key: string]: unknown;
}

/** A platform (DSP) the signal can be activated on. */
export interface PlatformAvailability {
  /** The platform's identifier, as a buyer names it in a deployment target. */
  readonly platform: string;
  /** Present when the signal is already live there for every buyer: the segment id to target. */
  readonly segment_id?: string;
  /** How long activating it there takes when it is not live. */
  readonly activation_minutes: number;
}

interface CatalogSignalBase {
  readonly signal_agent_segment_id: string;
  readonly signal_id: SignalId;
  readonly name: string;
  readonly description: string;
  readonly value_type: 'binary' | 'categorical' | 'numeric';
  /** The values of a categorical signal. */
  readonly categories?: readonly string[];
  /** The range of a numeric signal. */
  readonly range?: { readonly min: number; readonly max: number };
  readonly data_provider: string;
  /** Reach relative to the agent's population, 0–100. */
  readonly coverage_percentage: number;
  /** At least one; a marketplace signal has a `cpm` one, an owned signal costs nothing. */
  readonly pricing_options: readonly SignalPricingOption[];
  // Catalog only, never sent on the wire:
  readonly category: SignalCategory;
  /** From broad to narrow, e.g. `[automotive, in-market, electric vehicles]`. */
  readonly taxonomy: readonly string[];
  /** Words and phrases a brief may use for it (synonyms, brands of need, common misspellings). */
  readonly keywords: readonly string[];
  /** ISO 3166-1 alpha-2 codes of the countries where it is available. */
  readonly countries: readonly string[];
  /** The platforms it can be activated on (agent targets take any signal, live at once). */
  readonly platforms: readonly PlatformAvailability[];
}

/** Licensed from a data provider, CPM priced, visible to everyone. */
export interface MarketplaceSignal extends CatalogSignalBase {
  readonly signal_type: 'marketplace';
}

/** Built for named principal accounts, visible only to them. */
export interface CustomSignal extends CatalogSignalBase {
  readonly signal_type: 'custom';
  /** The principal accounts that may see and activate it (the names the tenant knows callers by). */
  readonly principals: readonly string[];
}

/** The owner's own (first-party) data, private to it, no cost. */
export interface OwnedSignal extends CatalogSignalBase {
  readonly signal_type: 'owned';
  /** The one principal account it belongs to. */
  readonly owner: string;
}

export type CatalogSignal = MarketplaceSignal | CustomSignal | OwnedSignal;

/** A validated signals catalog, read-only. */
export interface SignalsCatalog {
  /** Where it was read from, as named in error messages. */
  readonly source: string;
  readonly signals: readonly CatalogSignal[];
}
