import type { Queryable } from '../../db/database.ts';
import type { EntityType, SnapshotSection } from '../feed/index.ts';
import * as events from './events.ts';
import { declarationsOf } from './operator-declarations.ts';
import * as sql from './sql/index.ts';

/**
 * The graph's sections of the feed snapshot: each record as its latest feed event describes it,
 * keyed by the same entity id, so a mirror loads these and then applies events unchanged.
 */
function section<Row>(
  entityType: EntityType,
  page: (db: Queryable, after: string | undefined, limit: number) => Promise<Row[]>,
  idOf: (row: Row) => string,
  data: (row: Row) => Record<string, unknown>,
  keys: SnapshotSection['keys'] = 'uuid',
): SnapshotSection {
  return {
    entityType,
    keys,
    async page(db, after, limit) {
      return (await page(db, after, limit)).map((row) => ({
        key: idOf(row),
        entity_type: entityType,
        entity_id: idOf(row),
        data: data(row),
      }));
    },
  };
}

export const publisherSnapshot = section(
  'publisher',
  sql.publishersPage,
  (row) => row.domain,
  (row) => ({
    publisher_domain: row.domain,
    status: row.status,
    document_url: row.document_url,
    manager_domain: row.manager_domain,
    ...(row.stale_reason ? { stale_reason: row.stale_reason } : {}),
    discovered_at: row.discovered_at.toISOString(),
    crawled_at: row.crawled_at.toISOString(),
  }),
  'text',
);

/** A page of properties with each one's operator declarations, read for the whole page at once. */
async function propertiesWithDeclarations(db: Queryable, after: string | undefined, limit: number) {
  const rows = await sql.propertiesPage(db, after, limit);
  const declarations = await declarationsOf(db, rows);
  return rows.map((row, i) => ({ ...row, operator_declarations: declarations[i]! }));
}

export const catalogPropertySnapshot = section(
  'property',
  propertiesWithDeclarations,
  (row) => row.property_rid,
  (row) => {
    const { payload } = events.propertyEvent('property.updated', row);
    return row.status === 'active' ? payload : { ...payload, reason: row.stale_reason };
  },
);

export const collectionSnapshot = section(
  'collection',
  sql.collectionsPage,
  (row) => row.collection_rid,
  (row) => events.collectionEvent('collection.updated', row).payload,
);

export const authorizationSnapshot = section(
  'authorization',
  sql.authorizationsPage,
  (row) => row.id,
  (row) => events.authorizationEvent('authorization.granted', row).payload,
);

/** The graph's part of the property catalog: the crawled publishers and their properties. */
export const graphCatalogSnapshot = [publisherSnapshot, catalogPropertySnapshot];

/** The graph's collections, the collections sync's one section. */
export const graphCollectionsSnapshot = [collectionSnapshot];

/** Every section of the graph; this order is that of the registry snapshot's page tokens, kept. */
export const graphSnapshot = [...graphCatalogSnapshot, ...graphCollectionsSnapshot, authorizationSnapshot];
