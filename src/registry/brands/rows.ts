import type { BrandRow } from './sql.ts';

export interface BrandManifest {
  name?: string;
  description?: string;
  logos?: Array<{ url: string; tags?: string[] }>;
  colors?: Array<{ hex: string; type?: string }>;
}

/** The resolution record of the spec. A brand with no house of record is its own (master) house. */
export function toResolution(row: BrandRow) {
  return {
    canonical_id: row.id,
    canonical_domain: row.domain,
    brand_name: row.brand_name,
    keller_type: row.keller_type ?? 'master',
    house_domain: row.house_domain ?? row.domain,
    source: row.source,
  };
}

/** A brand as the registry listing shows it: its entry, and the flags the protocol's registry client reads. */
export function toEntry(row: BrandRow) {
  const { canonical_id, canonical_domain, ...rest } = toResolution(row);
  return {
    id: canonical_id,
    domain: canonical_domain,
    ...rest,
    brand_manifest: row.manifest as BrandManifest,
    has_manifest: Object.keys(row.manifest).length > 0,
    verified: row.source === 'brand_json',
    revision_number: row.revision,
    updated_at: row.updated_at.toISOString(),
  };
}

/** What a revision keeps of a brand; a rollback restores it. */
export function snapshot(row: BrandRow): Record<string, unknown> {
  return {
    domain: row.domain,
    brand_name: row.brand_name,
    keller_type: row.keller_type,
    house_domain: row.house_domain,
    source: row.source,
    manifest: row.manifest,
  };
}
