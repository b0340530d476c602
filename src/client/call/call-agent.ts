import { randomUUID } from 'node:crypto';
import type { AgentConnection, TaskDescription } from '../agents/index.ts';
import { ApAgentError, asAgentError } from './agent-error.ts';
import { awaitTask, ended, isPending, type TaskUpdate } from './await-task.ts';
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
    agent ??= await withRetry(() => openAgent({ ...options, signal }), options.retry, signal, options.onRetry);
    const { args, repeatable } = await argumentsFor(agent, options);
    const outcome = await withRetry(
      async () => {
        const answer = await agent!.call(options.task, args, { signal, timeoutMs });
        if (answer.ok) return answer;
        throw answer.error
          ? ApAgentError.fromAgent(answer.error)
          : new ApAgentError(
              'transport',
              'NOT_AN_AGENT',
              `${options.task} answered nothing readable: ${JSON.stringify(answer.raw).slice(0, 200)}`,
            );
      },
      repeatable ? options.retry : { ...options.retry, retries: 0 },
      signal,
      options.onRetry,
    );
    const payload = outcome.data;
    // An A2A agent may answer with a Task that has already ended: its result (or error) is the answer.
    if (outcome.task && !isPending(payload)) return ended(payload, String(payload['task_id']));
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
    if (timeout.aborted)
      throw new ApAgentError(
        'timeout',
        'TIMEOUT',
        `${options.task} did not finish within ${timeoutMs} ms${started ? `; its task ${started} goes on at the agent` : ''}`,
        { cause: err, ...(started ? { details: { code: 'TIMEOUT', message: 'timed out', task_id: started } } : {}) },
      );
    if (options.signal?.aborted) {
      const atAgent = started ? `; ${await cancelAtAgent(options, started)}` : '';
      throw new ApAgentError('canceled', 'CANCELED', `${options.task} was canceled${atAgent}`, { cause: err });
    }
    throw asAgentError(err);
  } finally {
    if (agent && !options.connection) await agent.close().catch(() => undefined);
  }
}

/**
 * Cancels the task the call started, on a connection of its own (the call's requests ended with
 * its signal), within a few seconds; says what came of it.
 */
async function cancelAtAgent(target: AgentTarget, taskId: string): Promise<string> {
  const signal = AbortSignal.timeout(5000);
  try {
    const agent = await openAgent({ ...target, signal });
    try {
      const answer = await agent.cancelTask(taskId, { signal });
      if (!answer.ok)
        return `its task ${taskId} could not be canceled at the agent (${answer.error?.code ?? 'no readable answer'})`;
      return `its task ${taskId} is ${String(answer.data['status'])} at the agent`;
    } finally {
      await agent.close().catch(() => undefined);
    }
  } catch (err) {
    return `its task ${taskId} could not be canceled at the agent (${asAgentError(err).message})`;
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
export function getCapabilities(
  target: AgentTarget & Pick<CallApAgentOptions, 'retry' | 'timeoutMs' | 'signal'>,
): Promise<Record<string, unknown>> {
  return callApAgent({ ...target, task: 'get_ap_capabilities', arguments: {} });
}

/**
 * The arguments as sent: a mutating task's `idempotency_key` (generated once, so retries reuse it)
 * and, when waiting on webhooks, the `push_notification_config` naming where to send them. And
 * whether a failed attempt may be sent again: only with a key, or for a task known to only read
 * (a retry after an answer lost on the way could otherwise do a mutation twice).
 */
async function argumentsFor(
  agent: AgentConnection,
  options: CallApAgentOptions,
): Promise<{ args: Record<string, unknown>; repeatable: boolean }> {
  const args = { ...(options.arguments ?? {}) };
  const kind = await kindOf(agent, options.task);
  if (args['idempotency_key'] === undefined && kind === 'mutating') args['idempotency_key'] = randomUUID();
  if (options.webhook && args['push_notification_config'] === undefined) {
    args['push_notification_config'] = {
      url: options.webhook.url,
      authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
    };
  }
  return { args, repeatable: args['idempotency_key'] !== undefined || kind === 'read' };
}

// The published schemas decide for the protocol's tasks; for others, an MCP tool says so in its
// input schema. An A2A skill has none: unknown.
async function kindOf(agent: AgentConnection, task: string): Promise<'mutating' | 'read' | 'unknown'> {
  if (protocolTasks.has(task)) return mutatingTasks.has(task) ? 'mutating' : 'read';
  if (agent.protocol !== 'mcp') return 'unknown';
  const tool = (await agent.describeTasks().catch(() => [])).find((t) => t.name === task);
  const properties = tool?.inputSchema?.['properties'];
  if (typeof properties !== 'object' || properties === null) return 'unknown';
  return 'idempotency_key' in properties ? 'mutating' : 'read';
}
