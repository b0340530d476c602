import type { Static } from 'typebox';
import type { EntityKind } from '../entries/index.ts';
import { recordChange } from './events.ts';
import { snapshot, toEntry, toResolution, type BrandManifest } from './rows.ts';
import * as schemas from './schemas.ts';
import { brandsForDomains, brandTables, type BrandRow, type BrandSource } from './sql.ts';

/** What a community save of a brand writes. */
export interface BrandFields {
  brand_name: string;
  manifest: BrandManifest;
}

/** Brands as the shared entry machinery (resolve, listing, saves, history, rollback) sees them. */
export const brandKind: EntityKind<BrandRow, BrandFields, Static<typeof schemas.SaveBody>> = {
  kind: 'brand',
  noun: 'brand',
  title: (domain) => `Brand ${domain}`,
  authoritativeFile: 'brand.json',
  tables: brandTables,
  domainOf: (row) => row.domain,
  find: (db, domains) => brandsForDomains(db, [...new Set(domains)]),
  snapshot,
  editableValues: (f) => [f.brand_name, JSON.stringify({ ...f.manifest })],
  restoredValues: (old) => [
    String(old.brand_name),
    JSON.stringify(old.manifest ?? {}),
    old.source as BrandSource,
    (old.keller_type as string | null) ?? null,
    (old.house_domain as string | null) ?? null,
  ],
  recordChange,
  wire: {
    path: '/api/brands',
    tag: 'Brand Resolution',
    domainField: 'domain',
    fieldsOf: (body) => ({ brand_name: body.brand_name, manifest: body.brand_manifest ?? {} }),
    resolution: toResolution,
    listed: toEntry,
    listKey: 'brands',
    resultExtras: (domain) => ({ domain }),
    schemas,
    docs: {
      resolve: {
        summary: 'Resolve a brand domain',
        description: 'The canonical brand record for a domain; a domain its house declares resolves to that brand.',
      },
      bulk: { summary: 'Resolve up to 100 brand domains' },
      registry: {
        summary: 'List and search brands',
        description: 'Ordered by domain; pages are stable under concurrent writes (keyset cursor).',
      },
      save: {
        summary: 'Save a community brand',
        description: 'Creates the brand or adds a revision to it. Brands managed by their own brand.json answer 409.',
      },
    },
  },
};
