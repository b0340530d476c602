import type { BrandManifest } from '../rows.ts';

/** What an enrichment provider found about a domain's brand. */
export interface EnrichmentResult {
  brand_name: string;
  manifest: BrandManifest;
  /** Which provider answered: recorded in the revision and the response (a chain names the one that knew). */
  provider: string;
}

/**
 * A source of brand data for a domain. The registry ships one that reads the domain's own public
 * metadata and an adapter for a third-party brand-data API (`brand-data-api.ts`); `withFallback`
 * chains them.
 */
export interface EnrichmentProvider {
  readonly name: string;
  /**
   * Null when the provider knows nothing about the domain. Throws an ApError when it cannot say
   * (the provider failed), so a failure is never mistaken for "nothing known".
   */
  enrich(domain: string): Promise<EnrichmentResult | null>;
}

/** Asks `first`, and `then` only when `first` knows nothing of the domain; a failure of `first` is not "nothing". */
export function withFallback(first: EnrichmentProvider, then: EnrichmentProvider): EnrichmentProvider {
  return {
    name: `${first.name}, then ${then.name}`,
    async enrich(domain) {
      return (await first.enrich(domain)) ?? then.enrich(domain);
    },
  };
}
