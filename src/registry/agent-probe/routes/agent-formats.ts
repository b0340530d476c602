import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { agentTarget } from '../agent-target.ts';
import { probeCache, probeLimits } from '../limits.ts';
import { AgentCredentialHeaders, AgentFormats, AgentQuery } from '../schemas.ts';
import { probeTask, type TaskProbeAnswer } from '../task-probe.ts';

/** `GET /api/public/agent-formats?url=`: the agent's list_creative_formats, asked live. */
export function agentFormatsRoute(app: FastifyInstance, ctx: AppContext): void {
  const cache = probeCache<TaskProbeAnswer>(ctx.clock);
  app.get<{ Querystring: AgentQuery; Headers: AgentCredentialHeaders }>(
    '/api/public/agent-formats',
    {
      config: { auth: 'optional', rateLimit: probeLimits(ctx.config) },
      schema: {
        summary: 'The creative formats an agent lists',
        description:
          'Calls the agent’s `list_creative_formats` now (MCP when it speaks both) and returns its answer, with where it departs from the published media-buy/list-creative-formats-response.json; `formats` and `success` at the top are for the protocol’s registry client. ' +
          'Without `ap-agent-authorization` the agent is asked anonymously: one that answers discovery only with a credential is 502 `agent_auth_required`. ' +
          'An answer without a `formats` array is 502 `agent_bad_response`; the agent’s error envelope is 502 `agent_task_failed` naming its code. Reaching the agent, caching and limits as for discover-agent (answers up to 4 MB).',
        tags: ['Agent Discovery'],
        querystring: AgentQuery,
        headers: AgentCredentialHeaders,
        response: { 200: AgentFormats, ...errorResponses(400, 429, 502) },
      },
    },
    async (request, reply) => {
      const target = agentTarget(request.query.url, request.headers);
      const probe = {
        task: 'list_creative_formats',
        args: {},
        expected: 'formats',
        schema: '/schemas/3.0.6/media-buy/list-creative-formats-response.json',
      };
      return reply.send(await cache.get(target.cacheKey, () => probeTask(ctx, target, probe)));
    },
  );
}
