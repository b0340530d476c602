/**
 * What a deployment's registry knows of a brand's look (its brand.json as crawled, an enrichment
 * or a community save): the registry answers it, the creative agents draw from it.
 */
export interface BrandIdentity {
  domain: string;
  name: string;
  url?: string;
  tagline?: string;
  description?: string;
  /** Its colours by role; a palette's colour of another role (`brand`, `theme`) stands for the primary one it lacks. */
  colors: { primary?: string; secondary?: string; accent?: string };
  logos: Array<{ url: string }>;
}

/**
 * A brand as the registry records it, for the brand agent: its registry id and domain, the id its
 * house's brand.json gives it, its architecture (`keller_type`), its house, and the identity its
 * manifest keeps (brand.json's as crawled, an enrichment, or a community save).
 */
export interface BrandRecord {
  id: string;
  domain: string;
  name: string;
  brandKey: string | null;
  kellerType: string;
  house: { domain: string; name: string };
  manifest: Record<string, unknown>;
}
