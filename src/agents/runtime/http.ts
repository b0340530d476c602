import type { FastifyInstance, FastifyReply, onRequestAsyncHookHandler } from 'fastify';
import { AgentError, agentErrorCatalogue, ApError } from '../../protocol/errors.ts';
import type { TaskRunner } from './runner.ts';
import type { Tenant } from './task.ts';

export type HttpEnvelope = 'creative' | 'signals';

/**
 * A tenant's tasks over plain HTTP: `POST <path>/tasks/<task>` with the arguments as the JSON body.
 * Errors answer with the code's HTTP status in the tenant's envelope (agent-tasks spec section 7):
 * creative agents `{error: {code, message}}`, signals agents `{errors: [{code, message, field, suggestion}]}`.
 */
export function mountHttp(app: FastifyInstance, tenant: Tenant, runner: TaskRunner, envelope: HttpEnvelope, hostGuard: onRequestAsyncHookHandler): void {
  const send = (reply: FastifyReply, error: AgentError, status: number = agentErrorCatalogue[error.code].status) => {
    const detail = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}), ...(error.suggestion ? { suggestion: error.suggestion } : {}) };
    return reply.code(status).send(envelope === 'creative' ? { error: { code: error.code, message: error.message } } : { errors: [detail] });
  };
  app.post<{ Params: { task: string } }>(
    `${tenant.path}/tasks/:task`,
    {
      config: { auth: 'required' },
      onRequest: hostGuard,
      schema: {
        summary: `${tenant.name} agent tasks over plain HTTP`,
        description: `The JSON body is the task's arguments; errors answer in the ${envelope} envelope.`,
        tags: ['Agents'],
        security: [{ bearer: [] }],
      },
      // Bodies that are not JSON answer in the agent's envelope too, not the registry's.
      errorHandler: (err, request, reply) => {
        // The guard's 401 (its challenge header already set) and 429, the parser's 400 and 415.
        const status = err instanceof ApError ? err.status : ((err as { statusCode?: number }).statusCode ?? 500);
        if (status >= 500) request.log.error({ err }, 'agent request failed');
        const code = status === 401 ? 'UNAUTHORIZED' : status === 429 ? 'RATE_LIMITED' : status < 500 ? 'INVALID_REQUEST' : 'INTERNAL_ERROR';
        return send(reply, new AgentError(code, status < 500 ? err.message : undefined), status);
      },
    },
    async (request, reply) => {
      try {
        return await runner.run(request.params.task, request.body ?? {}, request.principal!);
      } catch (err) {
        if (!(err instanceof AgentError)) request.log.error({ err, task: request.params.task }, 'agent task failed');
        return send(reply, err instanceof AgentError ? err : new AgentError('INTERNAL_ERROR'));
      }
    },
  );
}
