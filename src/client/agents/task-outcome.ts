import { isRecord, parseJson } from '../../protocol/json-values.ts';

/** An agent's error on the wire (core/error.json): at least `code` and `message`. */
export interface AgentErrorObject {
  code: string;
  message: string;
  [field: string]: unknown;
}

/** What a task call came to, whatever the transport: its payload, or the agent's error envelope. */
export type TaskOutcome =
  /** `task`: the answer was an A2A Task (read as get_task answers one), not the payload itself. */
  | { ok: true; data: Record<string, unknown>; task?: true }
  /** `error` is undefined when the agent signalled an error without an error object we can read. */
  | { ok: false; error: AgentErrorObject | undefined; raw: unknown };

/**
 * The error object inside whichever of the spec's three envelopes an agent answered with
 * (agent-tasks spec section 7): the object itself (`{code, message}`), `{error: {...}}`, or
 * `{errors: [{...}]}` (the first), or `{ap_error: {...}}` (MCP structured content).
 */
export function errorIn(value: unknown): AgentErrorObject | undefined {
  if (isErrorObject(value)) return value;
  if (!isRecord(value)) return undefined;
  for (const key of ['error', 'ap_error']) if (isErrorObject(value[key])) return value[key];
  const errors = value['errors'];
  return Array.isArray(errors) && isErrorObject(errors[0]) ? errors[0] : undefined;
}

/**
 * An MCP `tools/call` result read as the spec says (agent-tasks section 4): `content[0].text` is
 * the JSON payload; `structuredContent`, when an object, is the same payload already parsed, and
 * is preferred. `isError` marks an error, whose text parses to the error object.
 */
export function mcpOutcome(result: Record<string, unknown>): TaskOutcome {
  const text = firstText(result['content']);
  const parsed = text === undefined ? undefined : parseJson(text);
  if (result['isError'] === true) {
    return { ok: false, error: errorIn(parsed) ?? errorIn(result['structuredContent']), raw: parsed ?? result };
  }
  const structured = result['structuredContent'];
  if (isRecord(structured)) return { ok: true, data: structured };
  if (isRecord(parsed)) return { ok: true, data: parsed };
  return { ok: false, error: undefined, raw: result };
}

/**
 * An A2A answer's payload: the data part of a message (`{error: {...}}` when the task failed), or,
 * for a task that goes on, the task as `get_task` answers it (see a2aTaskOutcome).
 */
export function a2aOutcome(answer: unknown): TaskOutcome {
  if (!isRecord(answer)) return { ok: false, error: undefined, raw: answer };
  if (!Array.isArray(answer['parts'])) {
    const outcome = a2aTaskOutcome(answer);
    return outcome.ok ? { ...outcome, task: true } : outcome;
  }
  const value = dataOf(answer['parts']);
  if (!value) return { ok: false, error: undefined, raw: answer };
  const error = isErrorObject(value['error']) ? value['error'] : undefined;
  return error ? { ok: false, error, raw: value } : { ok: true, data: value };
}

// A2A task states (the SDK's TaskState numbers) by the names tasks-get-response.json uses.
const stateNames: Record<number, string> = {
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
  8: 'auth-required',
};

/**
 * An A2A Task read as `get_task` answers one (core/tasks-get-response.json): `task_id`, `status`,
 * and what its status message's data part says (progress, error); once completed, `result` from
 * the first artifact with a data part. A failed task is an outcome, not an error: the caller decides.
 */
export function a2aTaskOutcome(task: unknown): TaskOutcome {
  if (!isRecord(task) || typeof task['id'] !== 'string') return { ok: false, error: undefined, raw: task };
  const status = isRecord(task['status']) ? task['status'] : {};
  const message = isRecord(status['message']) ? status['message'] : undefined;
  const said = message && Array.isArray(message['parts']) ? (dataOf(message['parts']) ?? {}) : {};
  const data: Record<string, unknown> = {
    ...said,
    task_id: task['id'],
    status: stateNames[Number(status['state'])] ?? said['status'] ?? 'unknown',
  };
  if (data['status'] === 'completed' && data['result'] === undefined && Array.isArray(task['artifacts'])) {
    for (const artifact of task['artifacts'] as unknown[]) {
      const result = isRecord(artifact) && Array.isArray(artifact['parts']) ? dataOf(artifact['parts']) : undefined;
      if (result) {
        data['result'] = result;
        break;
      }
    }
  }
  return { ok: true, data };
}

function dataOf(parts: unknown[]): Record<string, unknown> | undefined {
  for (const part of parts) {
    const content = isRecord(part) ? part['content'] : undefined;
    if (isRecord(content) && content['$case'] === 'data' && isRecord(content['value'])) return content['value'];
  }
  return undefined;
}

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const first: unknown = content[0];
  return isRecord(first) && first['type'] === 'text' && typeof first['text'] === 'string' ? first['text'] : undefined;
}

export function isErrorObject(value: unknown): value is AgentErrorObject {
  return isRecord(value) && typeof value['code'] === 'string' && typeof value['message'] === 'string';
}
