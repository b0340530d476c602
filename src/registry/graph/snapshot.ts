import type { SnapshotSection } from '../feed/snapshot.ts';
import * as events from './events.ts';
import * as sql from './sql.ts';

/**
 * The graph's sections of the feed snapshot: each record as its latest feed event describes it,
 * keyed by the same entity id, so a mirror loads these and then applies events unchanged.
 */

export const catalogPropertySnapshot: SnapshotSection = {
  entityType: 'property',
  async page(db, after, limit) {
    return (await sql.propertiesPage(db, after, limit)).map((row) => {
      const { payload } = events.propertyEvent('property.updated', row);
      const data = row.status === 'active' ? payload : { ...payload, status: 'stale', reason: row.stale_reason };
      return { key: row.property_rid, entity_type: 'property', entity_id: row.property_rid, data };
    });
  },
};

export const collectionSnapshot: SnapshotSection = {
  entityType: 'collection',
  async page(db, after, limit) {
    return (await sql.collectionsPage(db, after, limit)).map((row) => ({
      key: row.collection_rid,
      entity_type: 'collection',
      entity_id: row.collection_rid,
      data: events.collectionEvent('collection.updated', row).payload,
    }));
  },
};

export const authorizationSnapshot: SnapshotSection = {
  entityType: 'authorization',
  async page(db, after, limit) {
    return (await sql.authorizationsPage(db, after, limit)).map((row) => ({
      key: row.id,
      entity_type: 'authorization',
      entity_id: row.id,
      data: events.authorizationEvent('authorization.granted', row).payload,
    }));
  },
};

export const publisherSnapshot: SnapshotSection = {
  entityType: 'publisher',
  async page(db, after, limit) {
    return (await sql.publishersPage(db, after, limit)).map((row) => ({
      key: row.domain,
      entity_type: 'publisher',
      entity_id: row.domain,
      data: {
        publisher_domain: row.domain,
        status: row.status,
        document_url: row.document_url,
        manager_domain: row.manager_domain,
        ...(row.stale_reason ? { stale_reason: row.stale_reason } : {}),
        discovered_at: row.discovered_at.toISOString(),
        crawled_at: row.crawled_at.toISOString(),
      },
    }));
  },
};

export const graphSnapshot = [publisherSnapshot, catalogPropertySnapshot, collectionSnapshot, authorizationSnapshot];
