import type { Queryable } from '../../db/database.ts';

/**
 * Brands and properties keep revisions the same way; this names the tables of each so the
 * history and rollback SQL is written once. Table names are constants here, never input.
 */
export interface RevisionTables {
  entries: 'brands' | 'properties';
  revisions: 'brand_revisions' | 'property_revisions';
  owner: 'brand_id' | 'property_id';
  domain: 'domain' | 'publisher_domain';
}

export const brandTables: RevisionTables = { entries: 'brands', revisions: 'brand_revisions', owner: 'brand_id', domain: 'domain' };
export const propertyTables: RevisionTables = {
  entries: 'properties',
  revisions: 'property_revisions',
  owner: 'property_id',
  domain: 'publisher_domain',
};

export interface NewRevision {
  revision_number: number;
  editor_name: string;
  edit_summary: string;
  source: string;
  is_rollback?: boolean;
  rolled_back_to?: number;
  snapshot: Record<string, unknown>;
}

export interface RevisionRow {
  revision_number: number;
  editor_name: string;
  edit_summary: string;
  source: string;
  is_rollback: boolean;
  rolled_back_to: number | null;
  created_at: Date;
}

export async function insertRevision(tx: Queryable, t: RevisionTables, entryId: string, rev: NewRevision): Promise<void> {
  await tx.query(
    `insert into ${t.revisions} (${t.owner}, revision_number, editor_name, edit_summary, source, is_rollback, rolled_back_to, snapshot)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [entryId, rev.revision_number, rev.editor_name, rev.edit_summary, rev.source, rev.is_rollback ?? false, rev.rolled_back_to ?? null, JSON.stringify(rev.snapshot)],
  );
}

/** The entry's revisions, newest first, with their total; undefined when the domain has no entry. */
export async function revisionsOf(
  db: Queryable,
  t: RevisionTables,
  domain: string,
  limit: number,
  offset: number,
): Promise<{ total: number; revisions: RevisionRow[] } | undefined> {
  const [entry] = await db.query<{ id: string; total: number }>(
    `select e.id, (select count(*)::int from ${t.revisions} r where r.${t.owner} = e.id) as total
     from ${t.entries} e where e.${t.domain} = $1`,
    [domain],
  );
  if (!entry) return undefined;
  const revisions = await db.query<RevisionRow>(
    `select revision_number, editor_name, edit_summary, source, is_rollback, rolled_back_to, created_at
     from ${t.revisions} where ${t.owner} = $1 order by revision_number desc limit $2 offset $3`,
    [entry.id, limit, offset],
  );
  return { total: entry.total, revisions };
}

export async function snapshotAt(tx: Queryable, t: RevisionTables, entryId: string, revision: number): Promise<Record<string, unknown> | undefined> {
  const [row] = await tx.query<{ snapshot: Record<string, unknown> }>(
    `select snapshot from ${t.revisions} where ${t.owner} = $1 and revision_number = $2`,
    [entryId, revision],
  );
  return row?.snapshot;
}
