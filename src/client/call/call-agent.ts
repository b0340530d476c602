import { randomUUID } from 'node:crypto';
import type { AgentConnection, TaskDescription } from '../agents/index.ts';
import { ApAgentError, asAgentError } from './agent-error.ts';
import { awaitTask, isPending, type TaskUpdate } from './await-task.ts';
import { mutatingTasks, protocolTasks } from './mutating-tasks.ts';
import { openAgent, type AgentTarget } from './open-agent.ts';
import { withRetry, type RetryPolicy } from './retry.ts';
import type { WebhookInbox } from './webhook-inbox.ts';

export interface CallApAgentOptions extends AgentTarget {
  task: string;
  arguments?: Record<string, unknown>;
  /** Retries of transient failures, with the same idempotency key (see withRetry). */
  retry?: RetryPolicy;
  /** Wait for a long-running task to end (default true); false answers its `{task_id, status}`. */
  wait?: boolean;
  /** The whole call, waiting included (default 10 minutes); then a TIMEOUT error naming the task. */
  timeoutMs?: number;
  /** Polls of a long-running task start this far apart (default 500 ms) and back off to 10 s. */
  pollIntervalMs?: number;
  /** Cancels the call; a long-running task it started is canceled at the agent too. */
  signal?: AbortSignal;
  onProgress?: (update: TaskUpdate) => void;
  /** Called before each retry, with the error and the wait. */
  onRetry?: (error: ApAgentError, waitMs: number) => void;
  /** Wait on webhooks: their URL is sent as `push_notification_config`, and they arrive in the inbox. */
  webhook?: { url: string; inbox: WebhookInbox };
  /** An open connection to reuse (see openAgent); it is left open. */
  connection?: AgentConnection;
}

/**
 * `call_ap_agent`: runs one task on any agent that follows the protocol, over MCP or A2A, and
 * answers its payload (for a long-running task, the result it ended with). Every failure is one
 * ApAgentError, whichever envelope carried it. A mutating task gets a UUID v4 `idempotency_key`
 * unless the arguments carry one, and keeps it on every retry.
 */
export async function callApAgent(options: CallApAgentOptions): Promise<Record<string, unknown>> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let agent: AgentConnection | undefined = options.connection;
  let started: string | undefined;
  try {
    agent ??= await withRetry(() => openAgent(options), options.retry, signal, options.onRetry);
    const args = await argumentsFor(agent, options);
    const payload = await withRetry(
      async () => {
        const outcome = await agent!.call(options.task, args, { signal, timeoutMs });
        if (outcome.ok) return outcome.data;
        throw outcome.error ? ApAgentError.fromAgent(outcome.error) : new ApAgentError('transport', 'NOT_AN_AGENT', `${options.task} answered nothing readable: ${JSON.stringify(outcome.raw).slice(0, 200)}`);
      },
      options.retry,
      signal,
      options.onRetry,
    );
    if (!isPending(payload) || options.wait === false) return payload;
    started = payload.task_id;
    return await awaitTask(agent, payload, {
      signal,
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.webhook ? { webhooks: options.webhook.inbox } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
  } catch (err) {
    if (timeout.aborted) throw new ApAgentError('timeout', 'TIMEOUT', `${options.task} did not finish within ${timeoutMs} ms${started ? `; its task ${started} goes on at the agent` : ''}`, { cause: err, ...(started ? { details: { code: 'TIMEOUT', message: 'timed out', task_id: started } } : {}) });
    if (options.signal?.aborted) {
      if (started && agent) await agent.cancelTask(started).catch(() => undefined);
      throw new ApAgentError('canceled', 'CANCELED', `${options.task} was canceled${started ? `; its task ${started} was canceled at the agent` : ''}`, { cause: err });
    }
    throw asAgentError(err);
  } finally {
    if (agent && !options.connection) await agent.close().catch(() => undefined);
  }
}

/** The tasks an agent offers, with their input schemas (MCP) or descriptions (A2A). */
export async function listTools(target: AgentTarget): Promise<TaskDescription[]> {
  const agent = await openAgent(target);
  try {
    return await agent.describeTasks();
  } catch (err) {
    throw asAgentError(err);
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** The agent's `get_ap_capabilities` answer. */
export function getCapabilities(target: AgentTarget & Pick<CallApAgentOptions, 'retry' | 'timeoutMs' | 'signal'>): Promise<Record<string, unknown>> {
  return callApAgent({ ...target, task: 'get_ap_capabilities', arguments: {} });
}

/**
 * The arguments as sent: a mutating task's `idempotency_key` (generated once, so retries reuse it)
 * and, when waiting on webhooks, the `push_notification_config` naming where to send them.
 */
async function argumentsFor(agent: AgentConnection, options: CallApAgentOptions): Promise<Record<string, unknown>> {
  const args = { ...(options.arguments ?? {}) };
  if (args['idempotency_key'] === undefined && (await mutates(agent, options.task))) args['idempotency_key'] = randomUUID();
  if (options.webhook && args['push_notification_config'] === undefined) {
    args['push_notification_config'] = { url: options.webhook.url, authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] } };
  }
  return args;
}

// The published schemas decide for the protocol's tasks; for others, an MCP tool says so in its
// input schema (an A2A skill has none).
async function mutates(agent: AgentConnection, task: string): Promise<boolean> {
  if (protocolTasks.has(task)) return mutatingTasks.has(task);
  if (agent.protocol !== 'mcp') return false;
  const tool = (await agent.describeTasks().catch(() => [])).find((t) => t.name === task);
  const properties = tool?.inputSchema?.['properties'];
  return typeof properties === 'object' && properties !== null && 'idempotency_key' in properties;
}
