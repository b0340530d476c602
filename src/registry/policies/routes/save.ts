import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { saveLimits } from '../../limits.ts';
import { organizationWrite } from '../../organization-write.ts';
import { SaveBody, saveBodyLimit, SaveResult } from '../schemas.ts';
import { saveCommunityPolicy } from '../service.ts';

/**
 * `POST /api/policies/save`: as the brand and property saves are, an organization's credential,
 * the saves' shared rate-limit budget and a JSON body (415 otherwise), bounded field by field and
 * in size. 201 when it created the policy, 200 for its next revision.
 */
export function saveRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: SaveBody }>(
    '/api/policies/save',
    {
      bodyLimit: saveBodyLimit,
      ...organizationWrite(saveLimits(ctx.config), {
        summary: 'Save a community policy',
        description:
          'Creates a community policy (source_type community, review_status pending), or adds a revision to one your organization contributed. ' +
          '409 `authoritative_entry` for a policy the registry publishes; 403 `forbidden` for another organization’s policy; ' +
          '409 `conflict` for a version already saved with other content (a version names one text: change it with the content).',
        tags: ['Policy Registry'],
        body: SaveBody,
        response: { 200: SaveResult, 201: SaveResult, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      }),
    },
    async (request, reply) => {
      const { row, created } = await saveCommunityPolicy(ctx.db, request.body, request.principal!);
      return reply.code(created ? 201 : 200).send({
        success: true,
        message: created
          ? `Policy ${row.policy_id} created at version ${row.version}.`
          : `Policy ${row.policy_id} updated to revision ${row.revision} (version ${row.version}).`,
        policy_id: row.policy_id,
        version: row.version,
        revision_number: row.revision,
      });
    },
  );
}
