import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { saveLimits } from '../../limits.ts';
import { organizationWrite } from '../../organization-write.ts';
import { changeAgent, removeAgent } from '../enrollment.ts';
import { entryOf } from '../entry.ts';
import { AgentUrlQuery, ChangeBody, Removed } from '../schemas/index.ts';

/** `PATCH` and `DELETE /api/registry/agents?agent_url=`: the operating organization changes or removes its agent. */
export function changeAgentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const rateLimit = saveLimits(ctx.config);
  app.patch<{ Querystring: Static<typeof AgentUrlQuery>; Body: Static<typeof ChangeBody> }>(
    '/api/registry/agents',
    {
      ...organizationWrite(rateLimit, {
        summary: 'Change an enrolled agent',
        description:
          'Its name, type, description (null clears it) or visibility. Only the organization that enrolled it (or a registry admin) may.',
        tags: ['Agent Discovery'],
        querystring: AgentUrlQuery,
        body: ChangeBody,
        response: { 200: { $ref: 'CatalogAgent' }, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      }),
    },
    async (request) => entryOf(await changeAgent(ctx, request.principal!, request.query.agent_url, request.body)),
  );
  app.delete<{ Querystring: Static<typeof AgentUrlQuery> }>(
    '/api/registry/agents',
    {
      ...organizationWrite(rateLimit, {
        summary: 'Remove an enrolled agent',
        description:
          'Takes the agent out of the catalog (with its probe results); the feed says `agent.removed` when it was public.',
        tags: ['Agent Discovery'],
        querystring: AgentUrlQuery,
        response: { 200: Removed, ...errorResponses(400, 401, 403, 404, 429) },
      }),
    },
    async (request) => {
      const { url } = await removeAgent(ctx, request.principal!, request.query.agent_url);
      return { agent_url: url, removed: true as const };
    },
  );
}
