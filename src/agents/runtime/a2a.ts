import { randomUUID } from 'node:crypto';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { Role, type AgentCard, type Message } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
  type AgentExecutor,
  type User,
} from '@a2a-js/sdk/server';
import type { Principal } from '../../auth/principal.ts';
import { AgentError } from '../../protocol/errors.ts';
import { a2aErrorData, echoOf, successBody } from './envelope.ts';
import type { TaskRunner } from './runner.ts';
import type { Tenant } from './task.ts';

/** The caller, as the A2A SDK carries it to the executor. */
class PrincipalUser implements User {
  readonly principal: Principal;
  constructor(principal: Principal) {
    this.principal = principal;
  }
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return `${this.principal.kind}:${this.principal.subject}`;
  }
}

/**
 * A tenant over A2A (JSON-RPC binding, official SDK): the agent card at
 * `<path>/.well-known/agent-card.json`, messages at `<path>/a2a`. A message names the task in a
 * data part `{skill, parameters}`; the answer is a message whose data part is the payload, or
 * `{error: {code, message, field?, suggestion?, recovery, ...}, context?}` (runtime/envelope.ts).
 */
export function mountA2a(app: FastifyInstance, tenant: Tenant, runner: TaskRunner, baseUrl: () => string, hostGuard: onRequestAsyncHookHandler): void {
  const executor: AgentExecutor = {
    async execute(requestContext, bus) {
      const principal = (requestContext.context.user as PrincipalUser).principal;
      const part = requestContext.userMessage.parts.find((p) => p.content?.$case === 'data');
      const data = part?.content?.value as { skill?: unknown; parameters?: unknown } | undefined;
      let payload: Record<string, unknown>;
      try {
        if (!data || typeof data.skill !== 'string') {
          throw new AgentError('INVALID_REQUEST', 'Send a data part {"skill": "<task>", "parameters": {...}}.', { field: 'skill' });
        }
        payload = successBody(await runner.run(data.skill, data.parameters ?? {}, principal), echoOf(data.parameters));
      } catch (err) {
        payload = a2aErrorData(err, echoOf(data?.parameters));
      }
      bus.publish(AgentEvent.message(reply(requestContext.contextId, payload)));
      bus.finished();
    },
    async cancelTask() {
      // Tasks answer in one message; there is nothing running to cancel.
    },
  };

  const cards = new Map<string, AgentCard>();
  const cardFor = (url: string): AgentCard => {
    let card = cards.get(url);
    if (!card) {
      card = agentCard(tenant, runner, url);
      cards.set(url, card);
    }
    return card;
  };
  const handlers = new Map<string, JsonRpcTransportHandler>();
  const handlerFor = (url: string): JsonRpcTransportHandler => {
    let handler = handlers.get(url);
    if (!handler) {
      handler = new JsonRpcTransportHandler(new DefaultRequestHandler(cardFor(url), new InMemoryTaskStore(), executor));
      handlers.set(url, handler);
    }
    return handler;
  };

  app.get(
    `${tenant.path}/.well-known/agent-card.json`,
    { onRequest: hostGuard, schema: { summary: `${tenant.name} agent card (A2A)`, tags: ['Agents'] } },
    async (_request, reply) => reply.type('application/json').send(JSON.stringify(cardFor(`${baseUrl()}${tenant.path}/a2a`))),
  );
  app.post(
    `${tenant.path}/a2a`,
    {
      config: { auth: 'required' },
      onRequest: hostGuard,
      schema: { summary: `${tenant.name} agent over A2A (JSON-RPC)`, tags: ['Agents'], security: [{ bearer: [] }] },
    },
    async (request, reply) => {
      const url = `${baseUrl()}${tenant.path}/a2a`;
      const version = request.headers['a2a-version'];
      const context = new ServerCallContext({ user: new PrincipalUser(request.principal!), ...(typeof version === 'string' ? { requestedVersion: version } : {}) });
      let result: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
      try {
        validateVersion(context.requestedVersion, cardFor(url), 'JSONRPC');
        result = await handlerFor(url).handle(request.body as Record<string, unknown>, context);
      } catch (err) {
        // Protocol errors (an unsupported version, a malformed request) answer in JSON-RPC, as the SDK's own adapters do.
        const id = (request.body as { id?: unknown } | undefined)?.id ?? null;
        return reply.type('application/json').send(JSON.stringify({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(err) }));
      }
      if (typeof (result as AsyncGenerator)[Symbol.asyncIterator] !== 'function') return reply.type('application/json').send(JSON.stringify(result));
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for await (const event of result as AsyncGenerator) reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
      reply.raw.end();
    },
  );
}

function reply(contextId: string, payload: Record<string, unknown>): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId: '',
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: 'data', value: payload }, metadata: undefined, filename: '', mediaType: 'application/json' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function agentCard(tenant: Tenant, runner: TaskRunner, url: string): AgentCard {
  return {
    name: tenant.name,
    description: tenant.description,
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: runner.tasks.map((task) => ({
      id: task.name,
      name: task.name,
      description: task.description,
      tags: [task.mutates ? 'mutating' : 'read-only'],
      examples: [],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
