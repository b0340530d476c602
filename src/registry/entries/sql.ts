import type { Queryable } from '../../db/database.ts';
import { likePattern } from '../../db/like.ts';
import type { EntryTables } from './kind.ts';

/**
 * Every query the entities share (brands, property entries), written once over the tables an
 * entity names in its `EntryTables`. Table and column names come from those constants, never from input.
 */

function revisionsTable(t: EntryTables): `${EntryTables['entity']}_revisions` {
  return `${t.entity}_revisions`;
}

function ownerColumn(t: EntryTables): `${EntryTables['entity']}_id` {
  return `${t.entity}_id`;
}

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

export async function entriesByDomain<Row>(
  db: Queryable,
  t: EntryTables,
  domains: string[],
): Promise<Map<string, Row>> {
  const rows = await db.query<Row & { matched: string }>(
    `select e.${t.domain} as matched, ${t.columns} from ${t.entries} e where e.${t.domain} = any($1::text[])`,
    [domains],
  );
  return new Map(rows.map(({ matched, ...row }) => [matched, row as Row]));
}

/** Locks the entry, so a rollback and a concurrent save take distinct revision numbers. */
export async function lockEntry<Row>(tx: Queryable, t: EntryTables, domain: string): Promise<Row | undefined> {
  const [row] = await tx.query<Row>(`select ${t.columns} from ${t.entries} e where e.${t.domain} = $1 for update`, [
    domain,
  ]);
  return row;
}

/**
 * Creates the entry or takes the next revision number of an existing, non-authoritative one, in
 * one statement: concurrent saves of a domain queue on its row and each gets its own number.
 * Entries whose source is in `keep` are left alone too. Returns nothing when the entry was left alone.
 */
export async function upsertEditable<Row>(
  tx: Queryable,
  t: EntryTables,
  entry: { id: string; domain: string; source: string; values: unknown[] },
  keep: readonly string[] = [],
): Promise<Row | undefined> {
  const placeholders = t.editable.map((_, i) => `$${i + 5}`).join(', ');
  const [row] = await tx.query<Row>(
    `insert into ${t.entries} as e (id, ${t.domain}, source, ${t.editable.join(', ')}, revision)
     values ($1, $2, $3, ${placeholders}, 1)
     on conflict (${t.domain}) do update set
       ${t.editable.map((c) => `${c} = excluded.${c}`).join(', ')}, source = excluded.source,
       revision = e.revision + 1, updated_at = now()
     where e.source <> '${t.authoritative}' and not (e.source = any($4::text[]))
     returning ${t.columns}`,
    [entry.id, entry.domain, entry.source, keep, ...entry.values],
  );
  return row;
}

/** Writes restored content as the entry's next revision. */
export async function restoreEntry<Row>(tx: Queryable, t: EntryTables, id: string, values: unknown[]): Promise<Row> {
  const [row] = await tx.query<Row>(
    `update ${t.entries} e set ${(t.restorable ?? t.editable).map((c, i) => `${c} = $${i + 2}`).join(', ')}, revision = e.revision + 1, updated_at = now()
     where e.id = $1 returning ${t.columns}`,
    [id, ...values],
  );
  return row!;
}

export interface ListFilter {
  q?: string;
  source?: string;
  /** Domain of the last row of the previous page (keyset paging). */
  after?: string;
  /** Rows to skip (offset paging, bounded by the route). */
  offset?: number;
  limit: number;
}

/** A page ordered by domain (unique, so the keyset never skips or repeats), one more than asked. */
export async function listPage<Row>(db: Queryable, t: EntryTables, f: ListFilter): Promise<Row[]> {
  return db.query<Row>(
    `select ${t.columns} from ${t.entries} e
     where ${t.matches} and ($2::text is null or e.source = $2) and ($3::text is null or e.${t.domain} > $3)
     order by e.${t.domain} limit $4 offset $5`,
    [likePattern(f.q), f.source ?? null, f.after ?? null, f.limit + 1, f.offset ?? 0],
  );
}

export interface Tally {
  /** Matching entries by source, every source present (0 when none). */
  bySource: Record<string, number>;
  /** Matching entries that satisfy each of the entity's `tallies`. */
  tallies: Record<string, number>;
}

/** The listing's counts over the entries matching `q`, by source and by the entity's tallies, in one pass. */
export async function tally(db: Queryable, t: EntryTables, q: string | undefined): Promise<Tally> {
  const names = Object.keys(t.tallies);
  const columns = names.map((name, i) => `, count(*) filter (where ${t.tallies[name]})::int as t${i}`).join('');
  const rows = await db.query<{ source: string; n: number } & Record<string, number>>(
    `select e.source, count(*)::int as n${columns} from ${t.entries} e where ${t.matches} group by e.source`,
    [likePattern(q)],
  );
  const bySource: Record<string, number> = Object.fromEntries(t.sources.map((s) => [s, 0]));
  const tallies: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  for (const row of rows) {
    bySource[row.source] = row.n;
    names.forEach((name, i) => (tallies[name]! += row[`t${i}`]!));
  }
  return { bySource, tallies };
}

export async function insertRevision(tx: Queryable, t: EntryTables, entryId: string, rev: NewRevision): Promise<void> {
  await tx.query(
    `insert into ${revisionsTable(t)} (${ownerColumn(t)}, revision_number, editor_name, edit_summary, source, is_rollback, rolled_back_to, snapshot)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      entryId,
      rev.revision_number,
      rev.editor_name,
      rev.edit_summary,
      rev.source,
      rev.is_rollback ?? false,
      rev.rolled_back_to ?? null,
      JSON.stringify(rev.snapshot),
    ],
  );
}

/** The entry's revisions, newest first, with their total; undefined when the domain has no entry. */
export async function revisionsOf(
  db: Queryable,
  t: EntryTables,
  domain: string,
  limit: number,
  offset: number,
): Promise<{ total: number; revisions: RevisionRow[] } | undefined> {
  const [entry] = await db.query<{ id: string; total: number }>(
    `select e.id, (select count(*)::int from ${revisionsTable(t)} r where r.${ownerColumn(t)} = e.id) as total
     from ${t.entries} e where e.${t.domain} = $1`,
    [domain],
  );
  if (!entry) return undefined;
  const revisions = await db.query<RevisionRow>(
    `select revision_number, editor_name, edit_summary, source, is_rollback, rolled_back_to, created_at
     from ${revisionsTable(t)} where ${ownerColumn(t)} = $1 order by revision_number desc limit $2 offset $3`,
    [entry.id, limit, offset],
  );
  return { total: entry.total, revisions };
}

export async function snapshotAt(
  tx: Queryable,
  t: EntryTables,
  entryId: string,
  revision: number,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await tx.query<{ snapshot: Record<string, unknown> }>(
    `select snapshot from ${revisionsTable(t)} where ${ownerColumn(t)} = $1 and revision_number = $2`,
    [entryId, revision],
  );
  return row?.snapshot;
}
