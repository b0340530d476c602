import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { likePattern } from '../../db/like.ts';
import { ApError } from '../../protocol/errors.ts';
import { errorResponses } from '../../protocol/wire/error.ts';

const Query = Type.Object({
  q: Type.String({ minLength: 2, maxLength: 200, description: 'Case-insensitive substring to look for.' }),
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
export function searchRoute(app: FastifyInstance, { db }: AppContext): void {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/api/search',
    {
      schema: { summary: 'Search brands, publishers and properties', tags: ['Search'], querystring: Query, response: { 200: Results, ...errorResponses(400) } },
    },
    async (request) => {
      const q = request.query.q.trim();
      // Padding must not get a one-character (match-everything) search past the minimum length.
      if (q.length < 2) {
        throw new ApError('validation_failed', 'Invalid querystring.q: must have at least 2 characters besides surrounding spaces.', {
          details: [{ in: 'querystring', field: 'q', message: 'must have at least 2 characters besides surrounding spaces' }],
        });
      }
      const limit = request.query.limit ?? 10;
      const pattern = likePattern(q);
      const exact = q.toLowerCase();
      const [brands, publishers, properties] = await Promise.all([
        db.query<{ domain: string; brand_name: string; source: string }>(
          `select domain, brand_name, source from brands
           where domain ilike $1 escape '\\' or brand_name ilike $1 escape '\\'
           order by (domain = $2) desc, lower(brand_name), domain limit $3`,
          [pattern, exact, limit],
        ),
        db.query<{ domain: string; source: string; agent_count: number }>(
          `select publisher_domain as domain, source, jsonb_array_length(authorized_agents) as agent_count from properties
           where publisher_domain ilike $1 escape '\\'
           order by (publisher_domain = $2) desc, publisher_domain limit $3`,
          [pattern, exact, limit],
        ),
        db.query<{ publisher_domain: string; type: string; name: string }>(
          `select p.publisher_domain, i->>'type' as type, i->>'name' as name
           from properties p cross join lateral jsonb_array_elements(p.inventory) i
           where i->>'name' ilike $1 escape '\\'
           order by lower(i->>'name'), p.publisher_domain limit $2`,
          [pattern, limit],
        ),
      ]);
      return { q, brands, publishers, properties };
    },
  );
}
