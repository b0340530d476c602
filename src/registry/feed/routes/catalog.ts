import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { bootstrapPaths } from '../bootstrap-paths.ts';
import type { SnapshotSection } from '../snapshot.ts';
import { catalogExample } from '../snapshot-examples.ts';
import { bootstrapSteps, pagedSnapshotRoute } from './paged-snapshot.ts';

/** The property catalog, one of the three re-bootstrap paths the spec's 410 names. */
export function catalogRoute(app: FastifyInstance, db: Database, sections: readonly SnapshotSection[]): void {
  pagedSnapshotRoute(app, db, {
    path: bootstrapPaths.catalog,
    name: 'catalog',
    sections,
    summary: 'Page through the property catalog to bootstrap a mirror',
    description:
      'The property catalog as it is now: contributed property entries, the publishers whose adagents.json was crawled, ' +
      'and each publisher’s properties with their identifiers, tags and operator declarations, with the feed `cursor` ' +
      `to tail from. ${bootstrapSteps} The events that change these entities are \`property.*\` and \`publisher.*\` ` +
      '(pass them as `types` to read only those). One of the three re-bootstrap paths after a 410.',
    page: 'A page of the property catalog, for bootstrapping a mirror.',
    example: catalogExample,
  });
}
