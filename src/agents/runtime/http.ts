import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { databaseUnreachable } from '../../db/unavailable.ts';
import { toApError } from '../../http/errors.ts';
import { AgentError, ApError } from '../../protocol/errors.ts';
import { echoOf, errorStatus, httpErrorBody, successBody, type HttpEnvelope } from './envelope.ts';
import type { TaskRunner } from './runner.ts';
import type { Tenant } from './task.ts';

export type { HttpEnvelope } from './envelope.ts';

/**
 * A tenant's tasks over plain HTTP: `POST <path>/tasks/<task>` with the arguments as the JSON body.
 * Errors answer with the code's HTTP status in the tenant's envelope (agent-tasks spec section 7,
 * built by runtime/envelope.ts): creative agents `{error: {...}}`, signals agents `{errors: [{...}]}`.
 */
export function mountHttp(
  app: FastifyInstance,
  tenant: Tenant,
  runner: TaskRunner,
  envelope: HttpEnvelope,
  hostGuard: onRequestAsyncHookHandler,
): void {
  app.post<{ Params: { task: string } }>(
    `${tenant.path}/tasks/:task`,
    {
      // The runner refuses text it cannot hold in the arguments, in the tenant's envelope.
      config: { auth: 'required', checksOwnText: true },
      onRequest: hostGuard,
      schema: {
        summary: `${tenant.name} agent tasks over plain HTTP`,
        description: `The JSON body is the task's arguments; errors answer in the ${envelope} envelope.`,
        tags: ['Agents'],
      },
      // Bodies that are not JSON answer in the agent's envelope too, not the registry's.
      errorHandler: (raw, request, reply) => {
        // The guard's 401 (its challenge header already set), 429 and 503 (its database away), the parser's 400 and 415.
        const err = databaseUnreachable(raw) ? toApError(raw) : raw;
        const status = err instanceof ApError ? err.status : ((err as { statusCode?: number }).statusCode ?? 500);
        if (status >= 500 && status !== 503) request.log.error({ err }, 'agent request failed');
        const code =
          status === 401
            ? 'UNAUTHORIZED'
            : status === 429
              ? 'RATE_LIMITED'
              : status === 503
                ? 'SERVICE_UNAVAILABLE'
                : status < 500
                  ? 'INVALID_REQUEST'
                  : 'INTERNAL_ERROR';
        const retryAfter = err instanceof ApError ? err.retryAfter : undefined;
        const error = new AgentError(
          code,
          status < 500 ? err.message : undefined,
          retryAfter !== undefined ? { retryAfter } : {},
        );
        return reply
          .code(status)
          .send(httpErrorBody(envelope, error, echoOf(undefined, request.headers.authorization)));
      },
    },
    async (request, reply) => {
      const echo = echoOf(request.body, request.headers.authorization);
      try {
        return successBody(await runner.run(request.params.task, request.body ?? {}, request.principal!), echo);
      } catch (err) {
        if (!(err instanceof AgentError)) request.log.error({ err, task: request.params.task }, 'agent task failed');
        return reply.code(errorStatus(err)).send(httpErrorBody(envelope, err, echo));
      }
    },
  );
}
