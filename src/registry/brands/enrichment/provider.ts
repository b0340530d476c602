import type { BrandManifest } from '../rows.ts';

/** What an enrichment provider found about a domain's brand. */
export interface EnrichmentResult {
  brand_name: string;
  manifest: BrandManifest;
}

/**
 * A source of brand data for a domain. The registry ships one that reads the domain's own public
 * metadata; an operator can plug in a commercial brand-data provider behind the same interface.
 */
export interface EnrichmentProvider {
  readonly name: string;
  /** Null when the provider knows nothing about the domain. */
  enrich(domain: string): Promise<EnrichmentResult | null>;
}
