import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { maxLikeText } from '../../../db/like.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { matchingBrands, matchingProperties, matchingPublishers } from '../sql.ts';

const Query = Type.Object({
  q: Type.String({ minLength: 2, maxLength: maxLikeText, description: 'Case-insensitive substring to look for.' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Results per group.' })),
});

const Results = Type.Object(
  {
    q: Type.String(),
    brands: Type.Array(Type.Object({ domain: Type.String(), brand_name: Type.String(), source: Type.String() })),
    publishers: Type.Array(Type.Object({ domain: Type.String(), source: Type.String(), agent_count: Type.Integer() })),
    properties: Type.Array(Type.Object({ publisher_domain: Type.String(), type: Type.String(), name: Type.String() })),
  },
  { description: 'Matches grouped by kind; exact domain matches first, then by name.' },
);

/** `GET /api/search`: one box that finds brands, publishers and the properties they declare. */
export function searchRoute(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/api/search',
    {
      schema: {
        summary: 'Search brands, publishers and properties',
        tags: ['Search'],
        querystring: Query,
        response: { 200: Results, ...errorResponses(400) },
      },
    },
    async (request) => {
      const q = request.query.q.trim();
      // Padding must not get a one-character (match-everything) search past the minimum length.
      if (q.length < 2) {
        throw new ApError(
          'validation_failed',
          'Invalid querystring.q: must have at least 2 characters besides surrounding spaces.',
          {
            details: [
              { in: 'querystring', field: 'q', message: 'must have at least 2 characters besides surrounding spaces' },
            ],
          },
        );
      }
      const search = { q, limit: request.query.limit ?? 10 };
      const [brands, publishers, properties] = await Promise.all([
        matchingBrands(db, search),
        matchingPublishers(db, search),
        matchingProperties(db, search),
      ]);
      return { q, brands, publishers, properties };
    },
  );
}
