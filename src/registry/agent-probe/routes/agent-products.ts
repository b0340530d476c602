import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { agentTarget } from '../agent-target.ts';
import { probeCache, probeLimits } from '../limits.ts';
import { AgentCredentialHeaders, AgentProducts, AgentProductsQuery } from '../schemas.ts';
import { probeTask, type TaskProbeAnswer } from '../task-probe.ts';

/** `GET /api/public/agent-products?url=&brief=`: a sales agent's get_products for a brief (or wholesale without one), asked live. */
export function agentProductsRoute(app: FastifyInstance, ctx: AppContext): void {
  const cache = probeCache<TaskProbeAnswer>(ctx.clock);
  app.get<{ Querystring: AgentProductsQuery; Headers: AgentCredentialHeaders }>(
    '/api/public/agent-products',
    {
      config: { auth: 'optional', rateLimit: probeLimits(ctx.config) },
      schema: {
        summary: 'The products a sales agent offers (for a brief, or its catalog)',
        description:
          'Calls the agent’s `get_products` now (MCP when it speaks both) with `buying_mode: brief` and the brief, or without a brief `buying_mode: wholesale` (its catalog; the protocol’s registry client sends no brief), ' +
          'and returns its answer with where it departs from the published media-buy/get-products-response.json; `products` and `success` at the top are for the protocol’s registry client. ' +
          'Without `ap-agent-authorization` the agent is asked anonymously: one that answers discovery only with a credential is 502 `agent_auth_required`. ' +
          'An answer without a `products` array (an agent that takes the request as a long-running task, say) is 502 `agent_bad_response`; the agent’s error envelope is 502 `agent_task_failed`. Reaching the agent, caching (per URL and brief, or its absence) and limits as for discover-agent (answers up to 4 MB).',
        tags: ['Agent Discovery'],
        querystring: AgentProductsQuery,
        headers: AgentCredentialHeaders,
        response: { 200: AgentProducts, ...errorResponses(400, 429, 502) },
      },
    },
    async (request, reply) => {
      const target = agentTarget(request.query.url, request.headers);
      const { brief } = request.query;
      // Without a brief, the protocol's no-brief form: the catalog as it stands (wholesale takes no brief).
      const args = brief === undefined ? { buying_mode: 'wholesale' } : { buying_mode: 'brief', brief };
      const probe = {
        task: 'get_products',
        args,
        expected: 'products',
        schema: '/schemas/3.0.6/media-buy/get-products-response.json',
      };
      return reply.send(
        await cache.get(`${target.cacheKey}\n${brief === undefined ? 'wholesale' : `brief:${brief}`}`, () =>
          probeTask(ctx, target, probe),
        ),
      );
    },
  );
}
