import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { HistoryQuery, PolicyHistory } from '../schemas.ts';
import { revisionsOf } from '../sql.ts';

/** `GET /api/policies/history`: public, newest first, paged by limit and offset. */
export function historyRoute(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: Static<typeof HistoryQuery> }>(
    '/api/policies/history',
    {
      schema: {
        summary: 'Revision history of a policy',
        description:
          'Every save of the policy is a revision: its number, the version it carried, who saved it and when, newest first.',
        tags: ['Policy Registry'],
        querystring: HistoryQuery,
        response: { 200: PolicyHistory, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { policy_id } = request.query;
      const page = await revisionsOf(db, policy_id, request.query.limit ?? 20, request.query.offset ?? 0);
      if (!page) throw new ApError('not_found', `No policy ${policy_id} is registered.`);
      return {
        policy_id,
        total: page.total,
        revisions: page.revisions.map((r) => ({
          revision_number: r.revision_number,
          version: r.version,
          editor_name: r.editor_name,
          edit_summary: r.edit_summary,
          source_type: r.source_type,
          is_rollback: false,
          created_at: r.created_at.toISOString(),
        })),
      };
    },
  );
}
