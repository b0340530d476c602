import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { SnapshotQuery, snapshotPageSchema } from '../schemas.ts';
import { readSnapshot, type SnapshotSection } from '../snapshot.ts';

/** One paged snapshot the feed serves: which sections, at which path, documented how. */
export interface SnapshotListing {
  path: string;
  /** Carried in its page tokens (see readSnapshot); none for the registry snapshot. */
  name?: string;
  sections: readonly SnapshotSection[];
  summary: string;
  description: string;
  /** What a page is, for the response schema. */
  page: string;
  example: Record<string, unknown>;
}

/**
 * Registers a listing's route: every listing pages with the one snapshot reader, so each has the
 * same credential, limits, page-token checks and feed cursor taken before its first page.
 */
export function pagedSnapshotRoute(app: FastifyInstance, db: Database, listing: SnapshotListing): void {
  app.get<{ Querystring: Static<typeof SnapshotQuery> }>(
    listing.path,
    {
      config: { auth: 'required' },
      schema: {
        summary: listing.summary,
        description: listing.description,
        tags: ['Change Feed'],
        querystring: SnapshotQuery,
        response: {
          200: snapshotPageSchema(
            listing.sections.map((s) => s.entityType),
            { description: listing.page, example: listing.example },
          ),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      readSnapshot(db, listing.sections, request.query.page_token, request.query.limit ?? 500, listing.name),
  );
}

/** How every listing is followed, for its description. */
export const bootstrapSteps =
  'Load every page (follow `next_page_token` until `has_more` is false), then read GET /api/registry/feed from ' +
  '`cursor` and apply each event: the mirror converges on the registry without missing a change, because the ' +
  'cursor is taken before the first page is read and events carry each entity’s whole new state.';
