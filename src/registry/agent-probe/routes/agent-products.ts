import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { AgentProducts, AgentProductsQuery } from '../schemas.ts';
import { probeTask, type TaskProbeAnswer } from '../task-probe.ts';
import { probeRoute } from './probe-route.ts';

/** `GET /api/public/agent-products?url=&brief=`: a sales agent's get_products for a brief (or wholesale without one), asked live. */
export function agentProductsRoute(app: FastifyInstance, ctx: AppContext): void {
  probeRoute<AgentProductsQuery, TaskProbeAnswer>(app, ctx, {
    path: '/api/public/agent-products',
    summary: 'The products a sales agent offers (for a brief, or its catalog)',
    description:
      'Calls the agent’s `get_products` now (MCP when it speaks both) with `buying_mode: brief` and the brief, or without a brief `buying_mode: wholesale` (its catalog; the protocol’s registry client sends no brief), ' +
      'and returns its answer with where it departs from the published media-buy/get-products-response.json; `products` and `success` at the top are for the protocol’s registry client. ' +
      'Without `ap-agent-authorization` the agent is asked anonymously: one that answers discovery only with a credential is 502 `agent_auth_required`. ' +
      'An answer without a `products` array (an agent that takes the request as a long-running task, say) is 502 `agent_bad_response`; the agent’s error envelope is 502 `agent_task_failed`. Reaching the agent, caching (per URL and brief, or its absence) and limits as for discover-agent (answers up to 4 MB).',
    querystring: AgentProductsQuery,
    response: AgentProducts,
    variant: ({ brief }) => (brief === undefined ? 'wholesale' : `brief:${brief}`),
    ask: (target, { brief }) =>
      probeTask(ctx, target, {
        task: 'get_products',
        // Without a brief, the protocol's no-brief form: the catalog as it stands (wholesale takes no brief).
        args: brief === undefined ? { buying_mode: 'wholesale' } : { buying_mode: 'brief', brief },
        expected: 'products',
        schema: '/schemas/3.0.6/media-buy/get-products-response.json',
      }),
  });
}
