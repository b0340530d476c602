import type { CreativeStatus } from './creative.ts';

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
