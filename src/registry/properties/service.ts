import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../../auth/principal.ts';
import { recordSkeleton } from '../homographs/index.ts';
import type { ProofCheck } from '../ownership/index.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { lockEntry, recordRevision, saveEntry, type SaveOutcome } from '../entries/index.ts';
import { appendEvent } from '../feed/append.ts';
import type { SnapshotSection } from '../feed/index.ts';
import { propertyKind } from './kind.ts';
import { toEntry } from './rows.ts';
import * as sql from './sql.ts';
import type { EditableFields, PropertyRow } from './sql.ts';

/** A community save of a property entry in a transaction of its own (the save route's pipeline, without screening). */
export async function saveCommunity(db: Database, domain: string, fields: EditableFields, principal: Principal, proof: ProofCheck): Promise<SaveOutcome<PropertyRow>> {
  return saveEntry(db, propertyKind, { domain, fields, principal, proof });
}

/**
 * The entry as the publisher's own adagents.json says (the crawler calls this in its transaction):
 * authoritative, so saves answer 409. A revision is added only when the content changed. The
 * file's changes reach the feed as the authorization graph's events, not from here; what is told
 * here is the end of a community entry it replaces: merged into `successorRid` (the catalog
 * property for the same domain) when there is one, else stale.
 */
export async function saveAuthoritative(tx: Queryable, domain: string, fields: EditableFields, successorRid?: string): Promise<PropertyRow> {
  const current = await lockEntry<PropertyRow>(tx, propertyKind.tables, domain);
  if (current?.source === 'adagents_json' && current.status === 'active' && isDeepStrictEqual(editable(current), editable({ ...fields }))) return current;
  const row = await sql.upsertAuthoritative(tx, randomUUID(), domain, fields);
  await recordSkeleton(tx, domain);
  await recordRevision(tx, propertyKind, row, { editor: 'system', summary: 'Projected from adagents.json' });
  if (current?.source === 'community') {
    const payload = successorRid
      ? { alias_rid: row.id, canonical_rid: successorRid, evidence: 'adagents_json', publisher_domain: domain }
      : { property_rid: row.id, publisher_domain: domain, status: 'stale', reason: 'superseded by the publisher’s adagents.json', last_resolved_at: current.updated_at.toISOString() };
    await appendEvent(tx, { event_type: successorRid ? 'property.merged' : 'property.stale', entity_type: 'property', entity_id: row.id, payload, actor: 'pipeline:crawler' });
  }
  return row;
}

/** The publisher's file is gone or invalid: its entry stays, marked stale, until a passing crawl. */
export async function markEntryStale(tx: Queryable, domain: string): Promise<void> {
  await sql.setStatus(tx, domain, 'stale');
}

/**
 * The snapshot section of community entries: each as resolve serves it, keyed like its feed
 * events. Authoritative entries are not property records of their own: the crawled catalog
 * (graph/) holds their properties.
 */
export const propertySnapshot: SnapshotSection = {
  entityType: 'property',
  async page(db, after, limit) {
    const rows = await sql.communityPageById(db, after, limit);
    return rows.map((row) => ({ key: row.id, entity_type: 'property', entity_id: row.id, data: toEntry(row) }));
  },
};

function editable(f: EditableFields): Record<string, unknown> {
  return { authorized_agents: f.authorized_agents, inventory: f.inventory, contact: f.contact ?? null };
}
