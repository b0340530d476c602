import { randomUUID } from 'node:crypto';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { AgentCard, Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
  type AgentExecutor,
  type TaskStore,
  type User,
} from '@a2a-js/sdk/server';
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { jsonRpcRefusal } from '../../http/json-rpc-refusal.ts';
import { AgentError } from '../../protocol/errors.ts';
import { a2aErrorData, echoOf, successBody, type Echo } from './envelope.ts';
import type { TaskRunner } from './runner.ts';
import type { Tenant } from './task.ts';
import {
  cancelTask,
  findTask,
  isTaskId,
  listTasks,
  tasksGetResponse,
  type TaskRow,
  type TaskStatus,
} from './tasks/service.ts';

/** The caller, as the A2A SDK carries it to the executor. */
class PrincipalUser implements User {
  readonly principal: Principal;
  /** The request's Authorization header, so no answer echoes its token. */
  readonly authorization: string | undefined;
  constructor(principal: Principal, authorization: string | undefined) {
    this.principal = principal;
    this.authorization = authorization;
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
 * A long-running skill answers an A2A Task instead, which `tasks/get` and `tasks/cancel` then read
 * and cancel from `agent_tasks` (the same rows as MCP's `get_task` and `cancel_task`).
 */
export function mountA2a(
  app: FastifyInstance,
  tenant: Tenant,
  runner: TaskRunner,
  baseUrl: () => string,
  hostGuard: onRequestAsyncHookHandler,
  tasks: { db: Database; clock: Clock; abort: (tenant: string, principal: string, taskId: string) => void },
): void {
  const store = new AgentTaskStore(tenant, tasks);
  const executor: AgentExecutor = {
    async execute(requestContext, bus) {
      const user = requestContext.context.user as PrincipalUser;
      const principal = user.principal;
      const part = requestContext.userMessage.parts.find((p) => p.content?.$case === 'data');
      const data = part?.content?.value as { skill?: unknown; parameters?: unknown } | undefined;
      let payload: Record<string, unknown>;
      try {
        if (!data || typeof data.skill !== 'string') {
          throw new AgentError('INVALID_REQUEST', 'Send a data part {"skill": "<task>", "parameters": {...}}.', {
            field: 'skill',
          });
        }
        const result = await runner.run(data.skill, data.parameters ?? {}, principal);
        // Accepted to run on (a long task, or one its handler deferred): the caller gets the A2A task.
        if (result['status'] === 'submitted' && typeof result['task_id'] === 'string') {
          const row = await findTask(tasks.db, tenant.name, principal, result['task_id']);
          bus.publish(AgentEvent.task(asA2aTask(row, tenant, echoOf(data.parameters, user.authorization))));
          bus.finished();
          return;
        }
        payload = successBody(result, echoOf(data.parameters, user.authorization));
      } catch (err) {
        payload = a2aErrorData(err, echoOf(data?.parameters, user.authorization));
      }
      bus.publish(AgentEvent.message(reply(requestContext.contextId, payload)));
      bus.finished();
    },
    async cancelTask() {
      // Execution ends as soon as a task is accepted, so the SDK cancels through the store (save).
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
      handler = new JsonRpcTransportHandler(new DefaultRequestHandler(cardFor(url), store, executor));
      handlers.set(url, handler);
    }
    return handler;
  };

  app.get(
    `${tenant.path}/.well-known/agent-card.json`,
    { onRequest: hostGuard, schema: { summary: `${tenant.name} agent card (A2A)`, tags: ['Agents'] } },
    async (_request, reply) =>
      reply.type('application/json').send(JSON.stringify(AgentCard.toJSON(cardFor(`${baseUrl()}${tenant.path}/a2a`)))),
  );
  app.post(
    `${tenant.path}/a2a`,
    {
      // The runner refuses text it cannot hold in the task's arguments, in A2A's terms.
      config: { auth: 'required', checksOwnText: true },
      onRequest: hostGuard,
      schema: { summary: `${tenant.name} agent over A2A (JSON-RPC)`, tags: ['Agents'] },
      // What is refused before the SDK reads the request answers in JSON-RPC too; a refused credential stays the registry's 401.
      errorHandler: jsonRpcRefusal,
    },
    async (request, reply) => {
      const url = `${baseUrl()}${tenant.path}/a2a`;
      const version = request.headers['a2a-version'];
      const context = new ServerCallContext({
        user: new PrincipalUser(request.principal!, request.headers.authorization),
        ...(typeof version === 'string' ? { requestedVersion: version } : {}),
      });
      let result: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
      try {
        validateVersion(context.requestedVersion, cardFor(url), 'JSONRPC');
        result = await handlerFor(url).handle(request.body as Record<string, unknown>, context);
      } catch (err) {
        // Protocol errors (an unsupported version, a malformed request) answer in JSON-RPC, as the SDK's own adapters do.
        const id = (request.body as { id?: unknown } | undefined)?.id ?? null;
        return reply
          .type('application/json')
          .send(JSON.stringify({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(err) }));
      }
      if (typeof (result as AsyncGenerator)[Symbol.asyncIterator] !== 'function')
        return reply.type('application/json').send(JSON.stringify(result));
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for await (const event of result as AsyncGenerator) reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
      reply.raw.end();
    },
  );
}

const states: Record<TaskStatus, TaskState> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  'input-required': TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
};

/**
 * The SDK's task store over `agent_tasks`, scoped to the caller: `load` answers the row as an A2A
 * Task, `save` only acts on a cancellation (the runtime writes every other state itself).
 */
class AgentTaskStore implements TaskStore {
  private readonly tenant: Tenant;
  private readonly tasks: {
    db: Database;
    clock: Clock;
    abort: (tenant: string, principal: string, taskId: string) => void;
  };

  constructor(tenant: Tenant, tasks: AgentTaskStore['tasks']) {
    this.tenant = tenant;
    this.tasks = tasks;
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    if (!isTaskId(taskId)) return undefined;
    try {
      return asA2aTask(await findTask(this.tasks.db, this.tenant.name, principalOf(context), taskId), this.tenant);
    } catch (err) {
      if (err instanceof AgentError && err.code === 'TASK_NOT_FOUND') return undefined;
      throw err;
    }
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    if (task.status?.state !== TaskState.TASK_STATE_CANCELED || !isTaskId(task.id)) return;
    try {
      await cancelTask(
        this.tasks.db,
        this.tasks.clock,
        this.tenant.name,
        principalOf(context),
        task.id,
        this.tasks.abort,
      );
    } catch (err) {
      // Finished meanwhile: the SDK reloads the task and answers that it is not cancelable.
      if (!(err instanceof AgentError)) throw err;
    }
  }

  async list(params: { pageSize?: number | undefined }, context: ServerCallContext) {
    const pageSize = params.pageSize ?? 50;
    const rows = await listTasks(this.tasks.db, this.tenant.name, principalOf(context), pageSize);
    return {
      tasks: rows.map((row) => asA2aTask(row, this.tenant)),
      nextPageToken: '',
      pageSize,
      totalSize: rows.length,
    };
  }
}

function principalOf(context: ServerCallContext): Principal {
  return (context.user as PrincipalUser).principal;
}

/**
 * A task row as an A2A Task: its state; a status message whose data part is the task as
 * `get_task` answers it (progress, error); and, once completed, its result as an artifact.
 */
function asA2aTask(row: TaskRow, tenant: Tenant, echo?: Echo): Task {
  // The answer to the call that started it echoes that call's context, as every answer does.
  const status = echo ? successBody(tasksGetResponse(row, tenant), echo) : tasksGetResponse(row, tenant);
  return {
    id: row.task_id,
    contextId: row.task_id,
    status: {
      state: states[row.status],
      message: reply(row.task_id, status, row.task_id),
      timestamp: row.updated_at.toISOString(),
    },
    artifacts:
      row.status === 'completed' && row.result
        ? [
            {
              artifactId: 'result',
              name: 'result',
              description: `The result of ${row.task}.`,
              parts: [dataPart(row.result)],
              metadata: undefined,
              extensions: [],
            },
          ]
        : [],
    history: [],
    metadata: undefined,
  };
}

function dataPart(value: Record<string, unknown>): Message['parts'][number] {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

function reply(contextId: string, payload: Record<string, unknown>, taskId = ''): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [dataPart(payload)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** What the card says of the bearer credentials this agent takes. */
function bearerDescription(tenant: Tenant): string {
  const accepted = "An API key or access token of this deployment's registry (OAuth: the agent's URL as resource)";
  return tenant.credentials?.some((c) => c.public)
    ? `${accepted}, or this test deployment's public test credential (printed when it starts, and in its README).`
    : `${accepted}.`;
}

function agentCard(tenant: Tenant, runner: TaskRunner, url: string): AgentCard {
  return {
    name: tenant.name,
    description: tenant.description,
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    // Every call needs a bearer credential (the /a2a route answers 401 without one).
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { scheme: 'Bearer', bearerFormat: '', description: bearerDescription(tenant) },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
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
