import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../../db/database.ts';
import { appendEvents, changedFields, type NewEvent } from '../feed/index.ts';
import { storedDocument, storeDocument } from '../documents/well-known.ts';
import { markEntryStale, saveAuthoritative } from '../properties/index.ts';
import * as events from './events.ts';
import { matchProjected } from './match.ts';
import { declarationsOf } from './operator-declarations.ts';
import type { AdagentsProjection, ProjectedProperty, Scope } from './project-adagents.ts';
import * as sql from './sql/index.ts';

export interface ApplySummary {
  /** Feed events written (not counting the end of a community entry the file replaces). */
  events: number;
}

const noChange: ApplySummary = { events: 0 };

/**
 * Brings the graph in line with a publisher's validated adagents.json, inside the caller's
 * transaction, and records one event per real change. The publisher row is locked first, so two
 * crawls of one domain (a worker and `ap crawl`, say) apply one after the other, and the second
 * compares against the first's result and finds nothing to say twice.
 */
export async function applyAdagents(
  tx: Queryable,
  p: AdagentsProjection,
  document: Record<string, unknown>,
  now: Date,
): Promise<ApplySummary> {
  const state = {
    domain: p.publisher_domain,
    document_url: p.document_url,
    manager_domain: p.manager_domain,
    document_hash: p.document_hash,
  };
  const created = await sql.ensurePublisher(tx, state, now);
  const publisher = (await sql.lockPublisher(tx, p.publisher_domain))!;
  if (!created && publisher.status === 'active' && publisher.document_hash === p.document_hash) {
    await sql.touchPublisher(tx, p.publisher_domain, now);
    return noChange;
  }
  const previousDocument = created
    ? undefined
    : (await storedDocument(tx, p.publisher_domain, 'adagents_json'))?.document;

  const props = await applyProperties(tx, p, now);
  const collections = await applyCollections(tx, p);
  const auths = await applyAuthorizations(tx, p, props.ridOfKey, now);
  const discovered = await sql.discoverAgents(
    tx,
    uniqueBy(
      p.authorizations.map((a) => ({ canonical: a.agent_url_canonical, url: a.agent_url })),
      (a) => a.canonical,
    ),
    p.publisher_domain,
    now,
  );
  const urlOf = new Map(p.authorizations.map((a) => [a.agent_url_canonical, a.agent_url]));

  const counts = {
    agent_count: new Set(p.authorizations.map((a) => a.agent_url_canonical)).size,
    property_count: p.properties.length,
    collection_count: p.collections.length,
    manager_domain: p.manager_domain,
    discovery_method: p.manager_domain ? 'authoritative_location' : 'well_known',
    // The publisher's state as the snapshot carries it, so a mirror (the lookups' index) need not read it back.
    document_url: p.document_url,
    discovered_at: publisher.discovered_at.toISOString(),
  };
  const publisherEvents: NewEvent[] = [];
  if (created) {
    publisherEvents.push(
      events.publisherEvent('publisher.adagents_discovered', p.publisher_domain, { status: 'active', ...counts }),
    );
  } else if (publisher.document_hash !== p.document_hash || publisher.status === 'stale') {
    publisherEvents.push(
      events.publisherEvent('publisher.adagents_changed', p.publisher_domain, {
        status: 'active',
        ...counts,
        properties_added: props.added,
        properties_removed: props.removed,
        agents_added: auths.agentsAdded,
        agents_removed: auths.agentsRemoved,
        ...events.changedFieldsEntry(previousDocument ?? {}, document),
      }),
    );
  }

  await sql.updatePublisher(tx, state, now);
  await storeDocument(tx, p.publisher_domain, 'adagents_json', p.document_url, document);
  const all = [
    ...publisherEvents,
    ...discovered.map((canonical) => events.agentDiscovered(urlOf.get(canonical) ?? canonical, p.publisher_domain)),
    ...props.events,
    ...collections,
    ...auths.events,
  ];
  await appendEvents(tx, all);
  // After the catalog's events, so a community entry this file replaces is told as merged into a
  // property already created: the one for the publisher's own domain, if the file declares it.
  const own = p.properties.find((x) =>
    x.identifiers.some((i) => i.type === 'domain' && i.value === p.publisher_domain),
  );
  const entry = await saveAuthoritative(
    tx,
    p.publisher_domain,
    {
      authorized_agents: p.authorizations.map((a) => ({
        url: a.agent_url,
        ...(a.authorized_for ? { authorized_for: a.authorized_for } : {}),
      })),
      inventory: p.properties.map((x) => ({ type: x.property_type, name: x.name })),
      contact: p.contact,
    },
    own ? props.ridOfKey.get(own.key) : undefined,
  );
  return { events: all.length + entry.events };
}

/**
 * A re-crawl found no valid file (404, 410, invalid): the publisher's properties go stale until a
 * passing crawl reactivates them. A domain never projected has nothing to mark.
 */
export async function markStale(tx: Queryable, domain: string, reason: string, now: Date): Promise<ApplySummary> {
  const publisher = await sql.lockPublisher(tx, domain);
  if (!publisher || publisher.status === 'stale') return noChange;
  await sql.markPublisherStale(tx, domain, reason, now);
  const active = (await sql.propertiesOf(tx, domain)).filter((row) => row.status === 'active');
  await sql.markPropertiesStale(
    tx,
    active.map((row) => row.property_rid),
    reason,
  );
  const entryEvents = await markEntryStale(tx, domain);
  // The file itself is gone or broken: say so for the publisher too, not only for each property.
  const all = [
    events.publisherEvent('publisher.adagents_changed', domain, { status: 'stale', reason }),
    ...active.map((row) => events.propertyStale(row, reason)),
  ];
  await appendEvents(tx, all);
  return { events: all.length + entryEvents };
}

async function applyProperties(tx: Queryable, p: AdagentsProjection, now: Date) {
  const stored = await sql.propertiesOf(tx, p.publisher_domain);
  const matching = matchProjected(stored, p.properties, {
    rid: (row) => row.property_rid,
    storedKey: (row) => row.property_key,
    key: (projected) => projected.key,
    identifier: (i: { type: string; value: string }) => `${i.type}\u0000${i.value}`,
  });

  const out: NewEvent[] = [];
  const writes: sql.PropertyWrite[] = [];
  const merges: Array<{ alias: string; canonical: string }> = [];
  const unchanged: string[] = [];
  const ridOfKey = new Map<string, string>();
  let added = 0;
  const declarations = await declarationsOf(
    tx,
    matching.matches.map((m) => m.projected),
  );
  for (const [i, { projected, rid, before, merged }] of matching.matches.entries()) {
    const write = toWrite(projected, rid ?? randomUUID());
    ridOfKey.set(projected.key, write.property_rid);
    const row = {
      ...write,
      publisher_domain: p.publisher_domain,
      status: 'active' as const,
      operator_declarations: declarations[i]!,
    };
    for (const alias of merged) {
      merges.push({ alias, canonical: write.property_rid });
      out.push(events.merged('property', alias, write.property_rid, p.publisher_domain));
    }
    if (!before) {
      added++;
      writes.push(write);
      out.push(events.propertyEvent('property.created', row));
      continue;
    }
    // Named as the publisher declares them: the property object's own fields.
    const change = events.changedFieldsEntry(before.property, write.property);
    if (before.status === 'stale') {
      writes.push(write);
      out.push(events.propertyEvent('property.reactivated', row, { reactivated_at: now.toISOString(), ...change }));
    } else if (change.changed_fields || merged.length > 0) {
      writes.push(write);
      out.push(
        events.propertyEvent(
          'property.updated',
          row,
          change.changed_fields ? change : { changed_fields: ['identifiers'] },
        ),
      );
    } else {
      unchanged.push(write.property_rid);
    }
  }
  const gone = matching.missing.filter((row) => row.status === 'active');
  const reason = 'no longer declared in adagents.json';
  for (const row of gone) out.push(events.propertyStale(row, reason));

  await sql.mergeProperties(tx, merges);
  await sql.markPropertiesStale(
    tx,
    gone.map((row) => row.property_rid),
    reason,
  );
  await sql.upsertProperties(tx, p.publisher_domain, writes, now);
  await sql.touchProperties(tx, unchanged, now);
  return { events: out, ridOfKey, added, removed: gone.length };
}

function toWrite(x: ProjectedProperty, rid: string): sql.PropertyWrite {
  return {
    property_rid: rid,
    property_key: x.key,
    property_id: x.property_id,
    property_type: x.property_type,
    name: x.name,
    tags: x.tags,
    property: x.property,
    identifiers: x.identifiers,
  };
}

async function applyCollections(tx: Queryable, p: AdagentsProjection): Promise<NewEvent[]> {
  const stored = await sql.collectionsOf(tx, p.publisher_domain);
  const matching = matchProjected(stored, p.collections, {
    rid: (row) => row.collection_rid,
    storedKey: (row) => row.collection_id,
    key: (projected) => projected.collection_id,
    identifier: (i: { publisher_domain: string; type: string; value: string }) =>
      `${i.publisher_domain}\u0000${i.type}\u0000${i.value}`,
  });
  const out: NewEvent[] = [];
  const writes: Array<Omit<sql.CollectionRow, 'publisher_domain' | 'status'>> = [];
  const merged: string[] = [];
  for (const match of matching.matches) {
    const { projected: next, before } = match;
    const write = {
      collection_rid: match.rid ?? randomUUID(),
      collection_id: next.collection_id,
      name: next.name,
      kind: next.kind,
      identifiers: next.identifiers,
      collection: next.collection,
    };
    const row = { ...write, publisher_domain: p.publisher_domain, status: 'active' as const };
    for (const alias of match.merged) {
      merged.push(alias);
      out.push(events.merged('collection', alias, write.collection_rid, p.publisher_domain));
    }
    if (!before) {
      writes.push(write);
      out.push(events.collectionEvent('collection.created', row));
      continue;
    }
    const fields = changedFields(before.collection, next.collection);
    if (before.status === 'removed') fields.push('status');
    if (fields.length > 0 || match.merged.length > 0) {
      writes.push(write);
      out.push(
        events.collectionEvent('collection.updated', row, {
          changed_fields: fields.length > 0 ? fields : ['identifiers'],
        }),
      );
    }
  }
  const gone = matching.missing.filter((row) => row.status === 'active');
  for (const row of gone) out.push(events.collectionEvent('collection.removed', { ...row, status: 'removed' }));
  await sql.deleteCollections(tx, merged);
  await sql.removeCollections(
    tx,
    gone.map((row) => row.collection_rid),
  );
  await sql.upsertCollections(tx, p.publisher_domain, writes);
  return out;
}

async function applyAuthorizations(tx: Queryable, p: AdagentsProjection, ridOfKey: Map<string, string>, now: Date) {
  const stored = new Map((await sql.authorizationsOf(tx, p.publisher_domain)).map((row) => [row.auth_key, row]));
  const out: NewEvent[] = [];
  const writes: sql.AuthorizationWrite[] = [];
  const seen = new Set<string>();
  for (const a of p.authorizations) {
    seen.add(a.key);
    const scopes = sortScopes(
      a.scopes.map((s) => (s.kind === 'rid' ? { ...s, value: ridOfKey.get(s.value) ?? s.value } : s)),
    );
    const before = stored.get(a.key);
    const write: sql.AuthorizationWrite = {
      id: before?.id ?? randomUUID(),
      auth_key: a.key,
      agent_url: a.agent_url,
      agent_url_canonical: a.agent_url_canonical,
      authorization_type: a.authorization_type,
      authorized_for: a.authorized_for,
      delegation_type: a.delegation_type,
      entry: a.entry,
      scopes,
    };
    const row = {
      ...write,
      publisher_domain: p.publisher_domain,
      created_at: before?.created_at ?? now,
      updated_at: now,
    };
    if (!before) {
      writes.push(write);
      out.push(events.authorizationEvent('authorization.granted', row));
    } else if (!isDeepStrictEqual(before.entry, a.entry) || !isDeepStrictEqual(sortScopes(before.scopes), scopes)) {
      writes.push(write);
      const change = events.changedFieldsEntry(before.entry, a.entry);
      out.push(
        events.authorizationEvent(
          'authorization.modified',
          row,
          change.changed_fields ? change : { changed_fields: ['scope'] },
        ),
      );
    }
  }
  const revoked = [...stored.values()].filter((row) => !seen.has(row.auth_key));
  for (const row of revoked) out.push(events.authorizationEvent('authorization.revoked', { ...row, updated_at: now }));
  await sql.deleteAuthorizations(
    tx,
    revoked.map((row) => row.id),
  );
  await sql.upsertAuthorizations(tx, p.publisher_domain, writes, now);

  const before = new Set([...stored.values()].map((row) => row.agent_url_canonical));
  const after = new Set(p.authorizations.map((a) => a.agent_url_canonical));
  return {
    events: out,
    agentsAdded: [...after].filter((url) => !before.has(url)),
    agentsRemoved: [...before].filter((url) => !after.has(url)),
  };
}

function sortScopes(scopes: Scope[]): Scope[] {
  const key = (s: Scope) => `${s.target_publisher}\u0000${s.kind}\u0000${s.value}`;
  return uniqueBy(scopes, key).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function uniqueBy<T>(items: T[], keyOf: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [keyOf(item), item])).values()];
}
