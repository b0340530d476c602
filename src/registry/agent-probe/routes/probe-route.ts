import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { agentTarget, type AgentTarget } from '../agent-target.ts';
import { probeCache, probeLimits } from '../limits.ts';
import { AgentCredentialHeaders, type AgentQuery } from '../schemas.ts';

/** One probing endpoint: its path, its documentation and what it asks the agent. */
export interface ProbeRoute<Query extends AgentQuery, Answer> {
  path: string;
  summary: string;
  description: string;
  querystring: TSchema;
  response: TSchema;
  /** What else than the agent and credential tells two questions apart in the cache. */
  variant?: (query: Query) => string;
  ask: (target: AgentTarget, query: Query) => Promise<Answer>;
}

/**
 * `GET path?url=`: asks the agent now, with the caller's `ap-agent-authorization` if any, within
 * the budget the probes share, and keeps the answer a minute per agent and credential.
 */
export function probeRoute<Query extends AgentQuery, Answer>(
  app: FastifyInstance,
  ctx: AppContext,
  route: ProbeRoute<Query, Answer>,
): void {
  const cache = probeCache<Answer>(ctx.clock);
  app.get<{ Headers: AgentCredentialHeaders }>(
    route.path,
    {
      config: { auth: 'optional', rateLimit: probeLimits(ctx.config) },
      schema: {
        summary: route.summary,
        description: route.description,
        tags: ['Agent Discovery'],
        querystring: route.querystring,
        headers: AgentCredentialHeaders,
        response: { 200: route.response, ...errorResponses(400, 429, 502) },
      },
    },
    async (request, reply) => {
      // Checked against `route.querystring` before this runs (Fastify cannot type it from a type parameter).
      const query = request.query as Query;
      const target = agentTarget(query.url, request.headers);
      const key = route.variant ? `${target.cacheKey}\n${route.variant(query)}` : target.cacheKey;
      return reply.send(await cache.get(key, () => route.ask(target, query)));
    },
  );
}
