import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { toPolicy } from '../rows.ts';
import { ResolveQuery } from '../schemas.ts';
import { policiesById, revisionWithVersion } from '../sql.ts';

/** `GET /api/policies/resolve`: the policy as it is, or as it was at a pinned version. 404 `not_found` when neither exists. */
export function resolveRoute(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: Static<typeof ResolveQuery> }>(
    '/api/policies/resolve',
    {
      schema: {
        summary: 'Resolve a policy',
        description:
          'The policy with this policy_id: its text, exemplars and metadata. With `version`, the newest revision that carried that version ' +
          '(a version names one text). 404 `not_found` for an unknown policy or a version it never had.',
        tags: ['Policy Registry'],
        querystring: ResolveQuery,
        response: { 200: { $ref: 'Policy#' }, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { policy_id, version } = request.query;
      const row = (await policiesById(db, [policy_id])).get(policy_id);
      if (!row) throw new ApError('not_found', `No policy ${policy_id} is registered.`);
      if (version === undefined || version === row.version) return toPolicy(row);
      const pinned = await revisionWithVersion(db, policy_id, version);
      if (!pinned)
        throw new ApError(
          'not_found',
          `Policy ${policy_id} has no version ${version} (its current version is ${row.version}).`,
        );
      return toPolicy(row, pinned);
    },
  );
}
