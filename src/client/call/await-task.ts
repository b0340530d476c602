import { setTimeout as delay } from 'node:timers/promises';
import { isRecord } from '../../protocol/json-values.ts';
import type { AgentConnection } from '../agents/index.ts';
import { ApAgentError } from './agent-error.ts';
import { withRetry, type RetryPolicy } from './retry.ts';
import type { WebhookInbox } from './webhook-inbox.ts';

/** What a long-running task said last: its state, and its progress when it reports any. */
export interface TaskUpdate {
  task_id: string;
  status: string;
  progress?: unknown;
  message?: string;
}

export interface WaitOptions {
  /** Polls start this far apart and back off to 10 s (default 500 ms). */
  pollIntervalMs?: number;
  /** Also wait for the task's webhooks here (its URL was sent as `push_notification_config`); polls then back it up every 30 s. */
  webhooks?: WebhookInbox;
  onProgress?: (update: TaskUpdate) => void;
  retry?: RetryPolicy;
  /** Aborted when the caller cancels or the wait times out (see callApAgent). */
  signal: AbortSignal;
}

const working = new Set(['submitted', 'working']);

/** Whether a task's answer says it goes on (`submitted`/`working` with a `task_id`). */
export function isPending(
  payload: Record<string, unknown>,
): payload is Record<string, unknown> & { task_id: string; status: string } {
  return (
    typeof payload['task_id'] === 'string' && typeof payload['status'] === 'string' && working.has(payload['status'])
  );
}

/**
 * Waits for a long-running task to end, polling `get_task` (or A2A `tasks/get`) and, when given,
 * reading its webhooks; reports each change of state or progress. Resolves with the completed
 * task's `result`; a failed or canceled task throws its error.
 */
export async function awaitTask(
  agent: AgentConnection,
  first: Record<string, unknown> & { task_id: string },
  options: WaitOptions,
): Promise<Record<string, unknown>> {
  const taskId = first.task_id;
  let last = '';
  const report = (state: Record<string, unknown>) => {
    const update: TaskUpdate = { task_id: taskId, status: String(state['status']) };
    if (state['progress'] !== undefined) update.progress = state['progress'];
    if (typeof state['message'] === 'string') update.message = state['message'];
    const key = JSON.stringify(update);
    if (key !== last) options.onProgress?.(update);
    last = key;
  };
  let state: Record<string, unknown> = first;
  let interval = options.pollIntervalMs ?? 500;
  for (;;) {
    report(state);
    if (!working.has(String(state['status']))) return ended(state, taskId);
    state = await nextState(agent, taskId, options, options.webhooks ? 30_000 : interval);
    interval = Math.min(10_000, interval * 1.5);
  }
}

async function nextState(
  agent: AgentConnection,
  taskId: string,
  options: WaitOptions,
  pollAfterMs: number,
): Promise<Record<string, unknown>> {
  const local = new AbortController();
  const signal = AbortSignal.any([options.signal, local.signal]);
  const poll = async () => {
    await delay(pollAfterMs, undefined, { signal });
    const outcome = await withRetry(() => agent.getTask(taskId, { signal }), options.retry, signal);
    if (!outcome.ok)
      throw outcome.error
        ? ApAgentError.fromAgent(outcome.error)
        : new ApAgentError('transport', 'NOT_AN_AGENT', `get_task for ${taskId} answered nothing readable`);
    return outcome.data;
  };
  const webhook = async () => {
    const event = await options.webhooks!.next(taskId, signal);
    return { ...event, ...(isRecord(event.result) ? { result: event.result } : {}) } as Record<string, unknown>;
  };
  try {
    return await Promise.race(options.webhooks ? [poll(), webhook()] : [poll()]);
  } finally {
    local.abort();
  }
}

/** A task that has ended: its result when completed, else its error thrown. */
export function ended(state: Record<string, unknown>, taskId: string): Record<string, unknown> {
  const status = String(state['status']);
  if (status === 'completed') return isRecord(state['result']) ? state['result'] : {};
  const error =
    isRecord(state['error']) &&
    typeof state['error']['code'] === 'string' &&
    typeof state['error']['message'] === 'string'
      ? state['error']
      : undefined;
  if (error) throw ApAgentError.fromAgent(error as { code: string; message: string });
  throw new ApAgentError(
    'agent',
    status === 'canceled' ? 'TASK_CANCELED' : 'TASK_FAILED',
    `Task ${taskId} ended ${status}${typeof state['message'] === 'string' ? `: ${state['message']}` : ''}`,
  );
}
