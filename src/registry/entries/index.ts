/**
 * The machinery brands and property entries share, written once and configured per entity by an
 * `EntityKind` (tables, wire schemas, projections, feed events): resolve, bulk resolve, the
 * registry listing, the save pipeline, history and rollback. It knows no entity itself.
 */
import { Revision } from './schemas.ts';

export type { EntityKind, EntityWire, EntryRow, EntryTables, Resolver, RouteDocs } from './kind.ts';
export { registerEntryRoutes, registerResolveRoutes } from './routes.ts';
export { actorOf, authoritative, heldSaveApplier, saveEntry, type Edit, type SaveOutcome } from './save.ts';
export { recordRevision, type RevisionNote } from './revisions.ts';
export { announceResolution, resolutionSnapshot, type ResolutionChange } from './resolution-events.ts';
export { entriesByDomain, lockEntry, snapshotAt, upsertEditable } from './sql.ts';
export { bulkBody, bulkResults, DomainQuery, historyPage, registryPage, registryQuery, saveResult } from './schemas.ts';

/** The revision record the entities' histories share, added app-wide. */
export const entrySchemas = [Revision];
