import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { toSummary } from '../rows.ts';
import { ListPage, ListQuery } from '../schemas.ts';
import { countByCategory, listPage, type ListFilter } from '../sql.ts';

/** `GET /api/policies/registry`: filters, ordered by policy_id, paged by limit and offset (the registry client's parameters). */
export function registryRoute(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: ListQuery }>(
    '/api/policies/registry',
    {
      schema: {
        summary: 'List and search policies',
        description:
          'The policy registry: the registry’s own regulations and standards and the community’s policies, ordered by policy_id, with counts by category of every match. ' +
          '`search` (or `q`) looks for a substring of the policy_id, name or description; the other filters narrow by the policy’s fields.',
        tags: ['Policy Registry'],
        querystring: ListQuery,
        response: { 200: ListPage, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { search, q, category, enforcement, jurisdiction, policy_category, domain } = request.query;
      const limit = request.query.limit ?? 20;
      const offset = request.query.offset ?? 0;
      const filter: ListFilter = {
        search: search ?? q,
        category,
        enforcement,
        jurisdiction: jurisdiction?.toUpperCase(),
        policyCategory: policy_category,
        domain,
      };
      const [rows, counts] = await Promise.all([listPage(db, filter, limit, offset), countByCategory(db, filter)]);
      return {
        policies: rows.slice(0, limit).map(toSummary),
        stats: { total: counts.regulation + counts.standard, ...counts },
        has_more: rows.length > limit,
      };
    },
  );
}
