import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../../auth/index.ts';
import { recordSkeleton } from '../homographs/index.ts';
import type { ProofCheck } from '../ownership/index.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { lockEntry, recordRevision, saveEntry, type SaveOutcome } from '../entries/index.ts';
import { appendEvent } from '../feed/index.ts';
import type { SnapshotSection } from '../feed/index.ts';
import { bucket, domainsToLookUp, readDomains, type PropertyCheck, type RegistryFacts } from './check.ts';
import { recordResolution } from './events.ts';
import { propertyKind } from './kind.ts';
import { toResolution, verified } from './rows.ts';
import * as sql from './sql.ts';
import type { EditableFields, PropertyRow } from './sql.ts';

/** A community save of a property entry in a transaction of its own (the save route's pipeline, without screening). */
export async function saveCommunity(
  db: Database,
  domain: string,
  fields: EditableFields,
  principal: Principal,
  proof: ProofCheck,
): Promise<SaveOutcome<PropertyRow>> {
  return saveEntry(db, propertyKind, { domain, fields, principal, proof });
}

/**
 * The entry as the publisher's own adagents.json says (the crawler calls this in its transaction):
 * authoritative, so saves answer 409. A revision is added only when the content changed. The
 * file's changes reach the feed as the authorization graph's events, not from here; what is told
 * here is what resolve now answers for the domain (`resolution.property_updated`) and the end of a
 * community entry it replaces: merged into `successorRid` (the catalog property for the same
 * domain) when there is one, else stale. Returns the entry and how many events it appended.
 */
export async function saveAuthoritative(
  tx: Queryable,
  domain: string,
  fields: EditableFields,
  successorRid?: string,
): Promise<{ row: PropertyRow; events: number }> {
  const current = await lockEntry<PropertyRow>(tx, propertyKind.tables, domain);
  if (
    current?.source === 'adagents_json' &&
    current.status === 'active' &&
    isDeepStrictEqual(editable(current), editable({ ...fields }))
  )
    return { row: current, events: 0 };
  const row = await sql.upsertAuthoritative(tx, randomUUID(), domain, fields);
  await recordSkeleton(tx, domain);
  await recordRevision(tx, propertyKind, row, { editor: 'system', summary: 'Projected from adagents.json' });
  await recordResolution(tx, row, 'pipeline:crawler');
  if (current?.source === 'community') {
    const payload = successorRid
      ? { alias_rid: row.id, canonical_rid: successorRid, evidence: 'adagents_json', publisher_domain: domain }
      : {
          property_rid: row.id,
          publisher_domain: domain,
          status: 'stale',
          reason: 'superseded by the publisher’s adagents.json',
          last_resolved_at: current.updated_at.toISOString(),
        };
    await appendEvent(tx, {
      event_type: successorRid ? 'property.merged' : 'property.stale',
      entity_type: 'property',
      entity_id: row.id,
      payload,
      actor: 'pipeline:crawler',
    });
    return { row, events: 2 };
  }
  return { row, events: 1 };
}

/** The publisher's file is gone or invalid: its entry stays, marked stale, until a passing crawl. Returns the events it appended. */
export async function markEntryStale(tx: Queryable, domain: string): Promise<number> {
  const row = await sql.setStatus(tx, domain, 'stale');
  if (!row) return 0;
  await recordResolution(tx, row, 'pipeline:crawler');
  return 1;
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
    return rows.map((row) => ({ key: row.id, entity_type: 'property', entity_id: row.id, data: toResolution(row) }));
  },
};

function editable(f: EditableFields): Record<string, unknown> {
  return { authorized_agents: f.authorized_agents, inventory: f.inventory, contact: f.contact ?? null };
}

/** How long a property check's report can be read back. */
export const checkReportDays = 7;

/**
 * Checks a list of publisher domains against the registry (`check.ts` says how each is sorted):
 * one query for every entry among them, whatever the list's length. The summary is stored as a
 * report readable for `checkReportDays`, and reports that expired meanwhile are dropped.
 */
export async function checkPropertyList(
  db: Database,
  clock: Clock,
  domains: string[],
): Promise<PropertyCheck & { report: sql.CheckReportRow }> {
  const read = readDomains(domains);
  const facts = await sql.entryFacts(db, domainsToLookUp(read));
  const known = new Map<string, RegistryFacts>(
    facts.map((f) => [
      f.publisher_domain,
      { source: f.source, status: f.status, agent_count: f.agent_count, verified: verified(f) },
    ]),
  );
  const check = bucket(read, known);
  const now = clock.now();
  const report = {
    id: randomUUID(),
    ...check.summary,
    created_at: now,
    expires_at: new Date(now.getTime() + checkReportDays * 24 * 60 * 60 * 1000),
  };
  await db.transaction(async (tx) => {
    await sql.deleteExpiredCheckReports(tx, now);
    await sql.insertCheckReport(tx, report);
  });
  return { ...check, report };
}
