import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { bootstrapPaths } from '../bootstrap-paths.ts';
import type { SnapshotSection } from '../snapshot.ts';
import { snapshotExample } from '../snapshot-examples.ts';
import { bootstrapSteps, pagedSnapshotRoute } from './paged-snapshot.ts';

/** Every section of the registry in one listing: the way to rebuild a whole mirror in one pass. */
export function snapshotRoute(app: FastifyInstance, db: Database, sections: readonly SnapshotSection[]): void {
  pagedSnapshotRoute(app, db, {
    path: bootstrapPaths.snapshot,
    sections,
    summary: 'Page through the registry state to bootstrap a mirror',
    description:
      'Every entity the feed describes, as it is now (property entries, publishers, catalog properties, collections and ' +
      `authorizations), with the feed \`cursor\` to tail from. ${bootstrapSteps} This is the way back after a 410 in one pass.`,
    page: 'A page of the registry state, for bootstrapping a mirror.',
    example: snapshotExample,
  });
}
