import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { AgentFormats, AgentQuery } from '../schemas.ts';
import { probeTask } from '../task-probe.ts';
import { probeRoute } from './probe-route.ts';

/** `GET /api/public/agent-formats?url=`: the agent's list_creative_formats, asked live. */
export function agentFormatsRoute(app: FastifyInstance, ctx: AppContext): void {
  probeRoute(app, ctx, {
    path: '/api/public/agent-formats',
    summary: 'The creative formats an agent lists',
    description:
      'Calls the agent’s `list_creative_formats` now (MCP when it speaks both) and returns its answer, with where it departs from the published media-buy/list-creative-formats-response.json; `formats` and `success` at the top are for the protocol’s registry client. ' +
      'Without `ap-agent-authorization` the agent is asked anonymously: one that answers discovery only with a credential is 502 `agent_auth_required`. ' +
      'An answer without a `formats` array is 502 `agent_bad_response`; the agent’s error envelope is 502 `agent_task_failed` naming its code. Reaching the agent, caching and limits as for discover-agent (answers up to 4 MB).',
    querystring: AgentQuery,
    response: AgentFormats,
    ask: (target) =>
      probeTask(ctx, target, {
        task: 'list_creative_formats',
        args: {},
        expected: 'formats',
        schema: '/schemas/3.0.6/media-buy/list-creative-formats-response.json',
      }),
  });
}
