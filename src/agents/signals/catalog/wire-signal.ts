import { underBase } from '../../catalog-files/index.ts';
import type { CatalogSignal, PlatformAvailability, SignalId, SignalPricingOption } from './types.ts';

/** core/activation-key.json. */
export type ActivationKey =
  | { readonly type: 'segment_id'; readonly segment_id: string }
  | { readonly type: 'key_value'; readonly key: string; readonly value: string };

/** core/deployment.json: one target, and whether the signal is live there. */
export type Deployment = (
  { readonly type: 'platform'; readonly platform: string } | { readonly type: 'agent'; readonly agent_url: string }
) & {
  readonly account?: string;
  readonly is_live: boolean;
  readonly activation_key?: ActivationKey;
  readonly estimated_activation_duration_minutes?: number;
  readonly deployed_at?: string;
};

/** An item of get_signals' `signals[]` (signals/get-signals-response.json), with the spec's `pricing` beside `pricing_options`. */
export interface WireSignal {
  readonly signal_id: SignalId;
  readonly signal_agent_segment_id: string;
  readonly name: string;
  readonly description: string;
  readonly value_type: CatalogSignal['value_type'];
  readonly categories?: readonly string[];
  readonly range?: { readonly min: number; readonly max: number };
  readonly signal_type: CatalogSignal['signal_type'];
  readonly data_provider: string;
  readonly coverage_percentage: number;
  readonly deployments: readonly Deployment[];
  readonly pricing_options: readonly SignalPricingOption[];
  /** The spec's "CPM and currency": the first CPM option's. */
  readonly pricing?: { readonly cpm: number; readonly currency: string };
}

/**
 * The signal as get_signals sends it, with the deployments worked out for the request. Catalog-only
 * fields (category, taxonomy, keywords, countries, platforms, principals, owner) stay behind; a
 * path-form agent_url of an agent-native id becomes absolute under `baseUrl`.
 */
export function toWireSignal(
  signal: CatalogSignal,
  options: { baseUrl: string; deployments: readonly Deployment[] },
): WireSignal {
  const pricing = cpmPricing(signal.pricing_options);
  return {
    signal_id:
      signal.signal_id.source === 'agent'
        ? { ...signal.signal_id, agent_url: underBase(options.baseUrl, signal.signal_id.agent_url) }
        : signal.signal_id,
    signal_agent_segment_id: signal.signal_agent_segment_id,
    name: signal.name,
    description: signal.description,
    value_type: signal.value_type,
    ...(signal.categories ? { categories: signal.categories } : {}),
    ...(signal.range ? { range: signal.range } : {}),
    signal_type: signal.signal_type,
    data_provider: signal.data_provider,
    coverage_percentage: signal.coverage_percentage,
    deployments: options.deployments,
    pricing_options: signal.pricing_options,
    ...(pricing ? { pricing } : {}),
  };
}

/** The deployment on a platform as the catalog states it: live with its segment id, or its activation estimate. */
export function catalogPlatformDeployment(availability: PlatformAvailability): Deployment {
  return availability.segment_id === undefined
    ? {
        type: 'platform',
        platform: availability.platform,
        is_live: false,
        estimated_activation_duration_minutes: availability.activation_minutes,
      }
    : {
        type: 'platform',
        platform: availability.platform,
        is_live: true,
        activation_key: { type: 'segment_id', segment_id: availability.segment_id },
      };
}

/** The CPM a max_cpm filter compares with: the first CPM option's (0 for an owned signal). */
export function cpmPricing(options: readonly SignalPricingOption[]): { cpm: number; currency: string } | undefined {
  const option = options.find((o) => o.model === 'cpm' && typeof o.cpm === 'number' && typeof o.currency === 'string');
  return option ? { cpm: option.cpm!, currency: option.currency! } : undefined;
}
