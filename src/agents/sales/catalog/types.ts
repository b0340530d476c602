/**
 * The fields of core/product.json the sales agent reads. The schema stays the authority (every
 * product is validated against it at load); these types only name what code touches, and the
 * index signatures carry the rest through untouched.
 */

export interface FormatId {
  /** Absolute once resolved; in a catalog file it may be a path on this deployment (`/creative/mcp`). */
  readonly agent_url: string;
  readonly id: string;
  readonly width?: number;
  readonly height?: number;
  readonly duration_ms?: number;
  readonly [key: string]: unknown;
}

interface SelectorBase {
  readonly publisher_domain: string;
  readonly [key: string]: unknown;
}

export type PublisherPropertySelector =
  | (SelectorBase & { readonly selection_type: 'all' })
  | (SelectorBase & { readonly selection_type: 'by_id'; readonly property_ids: readonly string[] })
  | (SelectorBase & { readonly selection_type: 'by_tag'; readonly property_tags: readonly string[] });

export type PricingModel = 'cpm' | 'vcpm' | 'cpc' | 'cpcv' | 'cpv' | 'cpp' | 'cpa' | 'flat_rate' | 'time';

export interface PricingOption {
  readonly pricing_option_id: string;
  readonly pricing_model: PricingModel;
  readonly currency: string;
  /** Present: fixed pricing. Absent: auction, usually above `floor_price`. */
  readonly fixed_price?: number;
  readonly floor_price?: number;
  readonly min_spend_per_package?: number;
  readonly [key: string]: unknown;
}

export interface Product {
  readonly product_id: string;
  readonly name: string;
  readonly description: string;
  readonly publisher_properties: readonly PublisherPropertySelector[];
  readonly channels?: readonly string[];
  readonly format_ids: readonly FormatId[];
  readonly delivery_type: 'guaranteed' | 'non_guaranteed';
  readonly pricing_options: readonly PricingOption[];
  readonly reporting_capabilities: { readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** A validated catalog: its products as written (agent_urls may still be paths), read-only. */
export interface Catalog {
  /** Where it was read from, as named in error messages. */
  readonly source: string;
  readonly products: readonly Product[];
}
