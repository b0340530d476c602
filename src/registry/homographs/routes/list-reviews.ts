import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { ReviewsPage, ReviewsQuery } from '../schemas.ts';
import { listReviews } from '../service.ts';

export function listReviewsRoute(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: Static<typeof ReviewsQuery> }>(
    '/api/admin/reviews',
    {
      config: { auth: 'required', access: 'registry-admin' },
      schema: {
        summary: 'List saves held for review',
        description:
          'Saves whose domain looks like a deny-listed brand or a registered domain (UTS #39 confusables), and brands sent to the deprecated community submission (`source`), newest first. Registry administrators only.',
        tags: ['Administration'],
        querystring: ReviewsQuery,
        response: { 200: ReviewsPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { status = 'pending', limit = 50, offset = 0 } = request.query;
      const { reviews, total } = await listReviews(db, { status, limit, offset });
      return { reviews, total, limit, offset };
    },
  );
}
