import type { TSchema } from 'typebox';
import type { Queryable } from '../../db/database.ts';
import type { ReviewKind } from '../homographs/index.ts';

/** What every registry entry row has, whichever entity it is. */
export interface EntryRow {
  id: string;
  source: string;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * Where an entity's entries and revisions live and how the shared SQL reads them. Every name here
 * is a constant of the entity's own sql.ts, never input: the shared SQL splices them in.
 */
export interface EntryTables {
  /** The entity: its revisions are in `<entity>_revisions`, owned by `<entity>_id`. */
  entity: 'brand' | 'property';
  entries: 'brands' | 'properties';
  domain: 'domain' | 'publisher_domain';
  /** The select list of a row, over the alias `e`. */
  columns: string;
  /** A predicate over `e` that holds when the row matches the LIKE pattern `$1` (null: every row). */
  matches: string;
  /** The source of entries managed by the entity's own file, which the registry never edits. */
  authoritative: string;
  /** Every value of `source`, for the listing's counts. */
  sources: readonly string[];
  /**
   * The listing's `stats` beyond its counts by source: each a predicate over `e` (sub-brands,
   * stale entries), counted over the matching entries in the same pass as the sources.
   */
  tallies: Readonly<Record<string, string>>;
  /** Columns a community save writes, in the order of `EntityKind.editableValues`. */
  editable: readonly string[];
  /** Columns a rollback restores, in the order of `EntityKind.restoredValues`; the editable ones when not given. */
  restorable?: readonly string[];
}

/**
 * What resolve answers for each of `domains` (normalized): the registry reads its entries, a mirror
 * its memory. A domain nothing resolves to is absent.
 */
export type Resolver = (domains: string[]) => Promise<Map<string, unknown>>;

/** One operation's documentation in the OpenAPI document. */
export interface RouteDocs {
  summary: string;
  description?: string;
}

/** How the entity appears on the wire: its paths, schemas and projections. */
export interface EntityWire<Row, Fields, Body> {
  /** Prefix of its routes: `${path}/resolve`, `${path}/save`, ... */
  path: '/api/brands' | '/api/properties';
  tag: string;
  /** The member of the save body that names the domain. */
  domainField: 'domain' | 'publisher_domain';
  fieldsOf(body: Body): Fields;
  /** What resolve and bulk resolve answer for a row. */
  resolution(row: Row): unknown;
  /** What the registry listing shows of a row, under `listKey`: the entry and the fields the protocol's registry client reads of a listed item. */
  listed(row: Row): unknown;
  listKey: 'brands' | 'properties';
  /** Members the save and rollback results carry besides success, message, id and revision_number. */
  resultExtras(domain: string): Record<string, unknown>;
  /** The entity's schemas module, which names its schemas of the shared routes alike. */
  schemas: {
    /** A schema or a `$ref` to a shared one. */
    ResolveResponse: TSchema | { $ref: string };
    BulkBody: TSchema;
    BulkResults: TSchema;
    SaveBody: TSchema;
    SaveResult: TSchema;
    RegistryQuery: TSchema;
    RegistryPage: TSchema;
  };
  /** The documentation of the operations whose words are the entity's own. */
  docs: { resolve: RouteDocs; bulk: RouteDocs; registry: RouteDocs; save: RouteDocs };
}

/**
 * A kind of registry entry (brands, property entries): everything the shared resolve, listing,
 * save, history and rollback need to know about it. Each entity describes itself once in its
 * own `kind.ts`; the machinery in this folder does the rest.
 */
export interface EntityKind<Row extends EntryRow = EntryRow, Fields = unknown, Body = unknown> {
  /** The kind of held save a look-alike review applies. */
  kind: ReviewKind;
  /** The noun in messages: `brand`, `property entry`. */
  noun: string;
  /** How a message names one entry: `Brand acme.example`, `Property entry for acme.example`. */
  title(domain: string): string;
  /** The file that manages authoritative entries, named in the 409. */
  authoritativeFile: 'brand.json' | 'adagents.json';
  tables: EntryTables;
  domainOf(row: Row): string;
  /** The entry each domain resolves to (its own, or one that declares it). */
  find(db: Queryable, domains: string[]): Promise<Map<string, Row>>;
  /** What a revision keeps of a row, in the shape it reads back from jsonb. */
  snapshot(row: Row): Record<string, unknown>;
  editableValues(fields: Fields): unknown[];
  restoredValues(snapshot: Record<string, unknown>): unknown[];
  /** Tells the change feed about a registry edit, after its revision is written (optional). */
  recordChange?(tx: Queryable, row: Row, actor: string): Promise<void>;
  wire: EntityWire<Row, Fields, Body>;
}
