import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../../auth/principal.ts';
import { recordSkeleton } from '../homographs/index.ts';
import type { ProofCheck } from '../ownership/index.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { appendEvent } from '../feed/append.ts';
import type { SnapshotSection } from '../feed/index.ts';
import { insertRevision, propertyTables, snapshotAt } from '../revisions/sql.ts';
import * as sql from './sql.ts';
import type { EditableFields, PropertyRow } from './sql.ts';

export function toEntry(row: PropertyRow) {
  return {
    id: row.id,
    publisher_domain: row.publisher_domain,
    source: row.source,
    status: row.status,
    authorized_agents: row.authorized_agents,
    properties: row.inventory,
    ...(row.contact ? { contact: row.contact } : {}),
    revision_number: row.revision,
    updated_at: row.updated_at.toISOString(),
  };
}

export async function resolveMany(db: Queryable, domains: string[]): Promise<Map<string, PropertyRow>> {
  return sql.byDomains(db, [...new Set(domains)]);
}

export interface SaveOutcome {
  row: PropertyRow;
  created: boolean;
}

/**
 * A community save: entry, revision and feed event in one transaction. The upsert takes the row
 * lock, so concurrent saves of one domain queue, each gets the next revision number, and each
 * compares against the revision just before its own.
 */
export async function saveCommunity(db: Database, domain: string, fields: EditableFields, principal: Principal, proof: ProofCheck): Promise<SaveOutcome> {
  return db.transaction((tx) => saveCommunityIn(tx, domain, fields, principal, proof));
}

/** The save inside a transaction the caller holds (an approved review applies it this way). */
export async function saveCommunityIn(tx: Queryable, domain: string, fields: EditableFields, principal: Principal, proof: ProofCheck): Promise<SaveOutcome> {
  const row = await sql.upsertCommunity(tx, randomUUID(), domain, fields);
  if (!row) throw authoritative(domain);
  // After the authoritative check: those entries answer 409 whoever asks (spec, anti-abuse rule 6).
  await proof(tx, principal, domain);
  await recordSkeleton(tx, domain);
  const created = row.revision === 1;
  await insertRevision(tx, propertyTables, row.id, {
    revision_number: row.revision,
    editor_name: principal.displayName,
    edit_summary: created ? 'Created' : 'Updated',
    source: 'community',
    snapshot: snapshot(row),
  });
  await recordChange(tx, row, `api:${principal.kind}:${principal.subject}`);
  return { row, created };
}

export async function rollback(db: Database, domain: string, toRevision: number, principal: Principal, proof: ProofCheck): Promise<PropertyRow> {
  return db.transaction(async (tx) => {
    const current = await sql.lockByDomain(tx, domain);
    if (!current) throw new ApError('not_found', `No property entry is registered for ${domain}.`);
    if (current.source === 'adagents_json') throw authoritative(domain);
    await proof(tx, principal, domain);
    if (toRevision >= current.revision) {
      throw new ApError('invalid_request', `Revision ${toRevision} is not an earlier revision; the current one is ${current.revision}.`);
    }
    const old = await snapshotAt(tx, propertyTables, current.id, toRevision);
    if (!old) throw new ApError('not_found', `Property entry ${domain} has no revision ${toRevision}.`);
    const row = await sql.restore(tx, current.id, {
      authorized_agents: (old.authorized_agents ?? []) as EditableFields['authorized_agents'],
      inventory: (old.inventory ?? []) as EditableFields['inventory'],
      contact: (old.contact ?? null) as EditableFields['contact'],
    });
    await insertRevision(tx, propertyTables, row.id, {
      revision_number: row.revision,
      editor_name: principal.displayName,
      edit_summary: `Rolled back to revision ${toRevision}`,
      source: row.source,
      is_rollback: true,
      rolled_back_to: toRevision,
      snapshot: snapshot(row),
    });
    await recordChange(tx, row, `api:${principal.kind}:${principal.subject}`);
    return row;
  });
}

/**
 * The entry as the publisher's own adagents.json says (the crawler calls this in its transaction):
 * authoritative, so saves answer 409. A revision is added only when the content changed. The
 * file's changes reach the feed as the authorization graph's events, not from here; what is told
 * here is the end of a community entry it replaces: merged into `successorRid` (the catalog
 * property for the same domain) when there is one, else stale.
 */
export async function saveAuthoritative(tx: Queryable, domain: string, fields: EditableFields, successorRid?: string): Promise<PropertyRow> {
  const current = await sql.lockByDomain(tx, domain);
  if (current?.source === 'adagents_json' && current.status === 'active' && isDeepStrictEqual(editable(current), editable({ ...fields }))) return current;
  const row = await sql.upsertAuthoritative(tx, randomUUID(), domain, fields);
  await recordSkeleton(tx, domain);
  await insertRevision(tx, propertyTables, row.id, {
    revision_number: row.revision,
    editor_name: 'system',
    edit_summary: 'Projected from adagents.json',
    source: 'adagents_json',
    snapshot: snapshot(row),
  });
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
 * One event per real change: `property.created` for a new entry, `property.updated` naming what
 * changed since the previous revision (none when nothing did). Call after inserting the revision.
 */
async function recordChange(tx: Queryable, after: PropertyRow, actor: string): Promise<void> {
  const before = after.revision > 1 ? await snapshotAt(tx, propertyTables, after.id, after.revision - 1) : undefined;
  const now = snapshot(after);
  const common = {
    property_rid: after.id,
    source: after.source === 'adagents_json' ? 'authoritative' : 'contributed',
    identifiers: [{ type: 'domain', value: after.publisher_domain }],
    publisher_domain: after.publisher_domain,
    // The whole entry after the change, as the snapshot and resolve serve it, so a mirror applies it as is.
    entry: toEntry(after),
  };
  if (!before) {
    await appendEvent(tx, { event_type: 'property.created', entity_type: 'property', entity_id: after.id, payload: { ...common, classification: 'property' }, actor });
    return;
  }
  const changed = (['source', 'authorized_agents', 'inventory', 'contact'] as const).filter((f) => !isDeepStrictEqual(before[f] ?? null, now[f] ?? null));
  if (changed.length === 0) return;
  const changed_fields = changed.map((f) => (f === 'inventory' ? 'properties' : f));
  await appendEvent(tx, { event_type: 'property.updated', entity_type: 'property', entity_id: after.id, payload: { ...common, changed_fields }, actor });
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

function authoritative(domain: string): ApError {
  return new ApError('authoritative_entry', `${domain} is managed by its adagents.json and cannot be edited through the registry.`);
}

function editable(f: EditableFields): Record<string, unknown> {
  return { authorized_agents: f.authorized_agents, inventory: f.inventory, contact: f.contact ?? null };
}

function snapshot(row: PropertyRow): Record<string, unknown> {
  // Same shape as it reads back from jsonb, so snapshots compare field by field.
  return { publisher_domain: row.publisher_domain, source: row.source, authorized_agents: row.authorized_agents, inventory: row.inventory, contact: row.contact };
}
