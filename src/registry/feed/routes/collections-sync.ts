import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { bootstrapPaths } from '../bootstrap-paths.ts';
import type { SnapshotSection } from '../snapshot.ts';
import { collectionsExample } from '../snapshot-examples.ts';
import { bootstrapSteps, pagedSnapshotRoute } from './paged-snapshot.ts';

/** The publishers' collections, one of the three re-bootstrap paths the spec's 410 names. */
export function collectionsSyncRoute(app: FastifyInstance, db: Database, sections: readonly SnapshotSection[]): void {
  pagedSnapshotRoute(app, db, {
    path: bootstrapPaths.collectionsSync,
    name: 'collections',
    sections,
    summary: 'Page through the collections to bootstrap a mirror',
    description:
      'Every collection publishers declare in their adagents.json (series, shows and the like, with their distribution ' +
      'identifiers), removed ones included with their status, and the feed `cursor` to tail from. ' +
      `${bootstrapSteps} The events that change collections are \`collection.*\`. One of the three re-bootstrap paths after a 410.`,
    page: 'A page of the collections, for bootstrapping a mirror.',
    example: collectionsExample,
  });
}
