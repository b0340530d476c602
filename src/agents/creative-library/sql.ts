import type { Queryable } from '../../db/database.ts';
import type { FormatId } from '../formats/index.ts';
import type { CreativeStatus, LibraryCreative } from './creative.ts';

/** What every library's list_creatives filters on (core/creative-filters.json's library-wide fields). */
export interface LibraryFilters {
  /** Absent: every status but archived, as creative-filters.json says. */
  statuses?: readonly CreativeStatus[];
  tagsAll?: readonly string[];
  tagsAny?: readonly string[];
  nameContains?: string;
  creativeIds?: readonly string[];
  formatKeys?: readonly string[];
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** A filter no creative can match (has_served, concept_ids, has_variables: true). */
  none?: boolean;
}

/** A query's numbered parameters, added as its conditions need them. */
export class Params {
  readonly values: unknown[];
  constructor(first: readonly unknown[] = []) {
    this.values = [...first];
  }
  /** The placeholder of a new parameter, cast. */
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

/**
 * The conditions of `filters` on a library table aliased `c` with the columns both libraries have
 * (status, tags, name, creative_id, format_key, created_at, updated_at), each filter one condition
 * only when given.
 */
export function libraryConditions(f: LibraryFilters, p: Params): string[] {
  const where = [f.statuses ? `c.status = any(${p.add(f.statuses, 'text[]')})` : `c.status <> 'archived'`];
  if (f.tagsAll) where.push(`c.tags @> ${p.add(f.tagsAll, 'text[]')}`);
  if (f.tagsAny) where.push(`c.tags && ${p.add(f.tagsAny, 'text[]')}`);
  if (f.nameContains !== undefined) where.push(`strpos(lower(c.name), lower(${p.add(f.nameContains, 'text')})) > 0`);
  if (f.creativeIds) where.push(`c.creative_id = any(${p.add(f.creativeIds, 'text[]')})`);
  if (f.formatKeys) where.push(`c.format_key = any(${p.add(f.formatKeys, 'text[]')})`);
  if (f.createdAfter) where.push(`c.created_at > ${p.add(f.createdAfter, 'timestamptz')}`);
  if (f.createdBefore) where.push(`c.created_at < ${p.add(f.createdBefore, 'timestamptz')}`);
  if (f.updatedAfter) where.push(`c.updated_at > ${p.add(f.updatedAfter, 'timestamptz')}`);
  if (f.updatedBefore) where.push(`c.updated_at < ${p.add(f.updatedBefore, 'timestamptz')}`);
  if (f.none) where.push('false');
  return where;
}

/** enums/creative-sort-field.json. */
export const creativeSortFields = ['created_date', 'updated_date', 'name', 'status', 'assignment_count'] as const;
export type SortField = (typeof creativeSortFields)[number];
export interface Sort {
  field: SortField;
  direction: 'asc' | 'desc';
}

/**
 * A list's order: the sort field's column (`assignmentCount` says how this library counts a
 * creative's assignments), ties broken on the order creatives were first synced (`c.seq`).
 */
export function orderBy(sort: Sort, assignmentCount: string): string {
  const dir = sort.direction === 'asc' ? 'asc' : 'desc';
  const column = {
    created_date: 'c.created_at',
    updated_date: 'c.updated_at',
    name: 'c.name',
    status: 'c.status',
    assignment_count: assignmentCount,
  }[sort.field];
  return `${column} ${dir}, c.seq ${dir}`;
}

/**
 * Where a library keeps its creatives (the creative agent's creative_library, the sales agent's
 * sales_creatives): the table, the columns that name one library of it, and the column naming a
 * library within its owner's. Both tables have the columns of `LibraryCreative`, `seq` and `owner`.
 */
export interface LibraryTable {
  table: string;
  /** The columns naming one library, in the order of a key's values (its lock, its lookups, the upsert's conflict target). */
  keyColumns: readonly string[];
  /** The library's column besides owner (account_key, account_id), written with each creative. */
  scopeColumn: string;
  /** The format_key column's text of a format id: what format_ids filters compare. */
  formatKey: (format: FormatId) => string;
  /** How this library counts a creative's assignments (SQL over `c`): what `assignment_count` sorts on. */
  assignmentCount: string;
}

const creativeColumns = (t: LibraryTable) =>
  ['seq', 'owner', t.scopeColumn, 'creative_id', 'name', 'format_id', 'assets', 'tags', 'status', 'details']
    .concat(['created_at', 'updated_at'])
    .map((column) => `c.${column}`)
    .join(', ');

function keyConditions(t: LibraryTable, key: readonly string[], p: Params): string[] {
  return t.keyColumns.map((column, i) => `c.${column} = ${p.add(key[i], 'text')}`);
}

/** Serializes the syncs of one library, so two never both decide a creative is new, nor archive what the other stores. */
export async function lockLibrary(tx: Queryable, t: LibraryTable, key: readonly string[]): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [JSON.stringify([t.table, ...key])]);
}

/** The library's creatives of these ids. */
export async function creativesByIds<Row extends LibraryCreative>(
  db: Queryable,
  t: LibraryTable,
  key: readonly string[],
  creativeIds: readonly string[],
): Promise<Row[]> {
  if (creativeIds.length === 0) return [];
  const p = new Params();
  const where = [...keyConditions(t, key, p), `c.creative_id = any(${p.add(creativeIds, 'text[]')})`];
  return db.query<Row>(`select ${creativeColumns(t)} from ${t.table} c where ${where.join(' and ')}`, p.values);
}

/** The library's creatives that are not archived, in the order they were first synced. */
export async function unarchived<Row extends LibraryCreative>(
  db: Queryable,
  t: LibraryTable,
  key: readonly string[],
): Promise<Row[]> {
  const p = new Params();
  const where = [...keyConditions(t, key, p), `c.status <> 'archived'`];
  return db.query<Row>(
    `select ${creativeColumns(t)} from ${t.table} c where ${where.join(' and ')} order by c.seq`,
    p.values,
  );
}

/** Inserts the creative into the owner's library `scope`, or replaces what a sync may change of it (its creation time and order stay). */
export async function upsertCreative(
  tx: Queryable,
  t: LibraryTable,
  library: { owner: string; scope: string },
  c: LibraryCreative,
): Promise<void> {
  await tx.query(
    `insert into ${t.table} (owner, ${t.scopeColumn}, creative_id, name, format_id, format_key, assets, tags, status, details, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11, $12)
     on conflict (${[...t.keyColumns, 'creative_id'].join(', ')}) do update set name = excluded.name, format_id = excluded.format_id, format_key = excluded.format_key,
       assets = excluded.assets, tags = excluded.tags, status = excluded.status, details = excluded.details, updated_at = excluded.updated_at`,
    [
      library.owner,
      library.scope,
      c.creative_id,
      c.name,
      JSON.stringify(c.format_id),
      t.formatKey(c.format_id),
      JSON.stringify(c.assets),
      c.tags,
      c.status,
      JSON.stringify(c.details),
      c.created_at,
      c.updated_at,
    ],
  );
}

/** What a list_creatives query selects: the owner's creatives matching the filters every library has and the library's own conditions. */
export interface LibraryQuery {
  owner: string;
  filters: LibraryFilters;
  /** The library's own conditions (its accounts, assignments), their parameters added to `p`. */
  own: (p: Params) => string[];
}

function queryWhere(q: LibraryQuery): { sql: string; params: Params } {
  const p = new Params([q.owner]);
  const conditions = ['c.owner = $1', ...libraryConditions(q.filters, p), ...q.own(p)];
  return { sql: conditions.join(' and '), params: p };
}

/** The creatives a query selects, as list_creatives reads them: a page in `sort`'s order, and how many there are. */
export function listing<Row extends LibraryCreative>(db: Queryable, t: LibraryTable, q: LibraryQuery, sort: Sort) {
  return {
    rows(offset: number, limit: number): Promise<Row[]> {
      const { sql, params } = queryWhere(q);
      return db.query<Row>(
        `select ${creativeColumns(t)} from ${t.table} c where ${sql} order by ${orderBy(sort, t.assignmentCount)}
         offset ${params.add(offset, 'int')} limit ${params.add(limit, 'int')}`,
        params.values,
      );
    },
    async count(): Promise<number> {
      const { sql, params } = queryWhere(q);
      const [row] = await db.query<{ n: number }>(
        `select count(*)::int as n from ${t.table} c where ${sql}`,
        params.values,
      );
      return row!.n;
    },
  };
}
