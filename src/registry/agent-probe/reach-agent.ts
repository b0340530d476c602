import { performance } from 'node:perf_hooks';
import {
  describeError,
  discoverAgent,
  findFetchError,
  type AgentConnection,
  type AgentDiscovery,
} from '../../client/agents/index.ts';
import type { FetchError } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ApError } from '../../protocol/errors.ts';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../protocol/json-depth.ts';
import type { AgentTarget } from './agent-target.ts';
import { probeCaps } from './limits.ts';

/**
 * Finds the agent at `target` (MCP and A2A, through the SSRF-safe client, each request and the
 * whole probe time-capped) and hands it to `use`, closing it after. When nothing there speaks
 * either protocol, throws the catalogue's error saying why: the address is refused
 * (`url_not_public`), nothing answered (`agent_unreachable`), it wants a credential
 * (`agent_auth_required`), or it answered as something else (`not_an_agent`).
 */
export async function withAgent<T>(
  fetcher: SafeFetch,
  target: AgentTarget,
  use: (found: AgentDiscovery) => Promise<T>,
  options: { maxBytes?: number } = {},
): Promise<T> {
  const found = await discoverAgent(target.url, {
    fetcher,
    clientName: 'ap-registry-probe',
    timeoutMs: probeCaps.requestTimeoutMs,
    maxBytes: options.maxBytes ?? probeCaps.maxBytes,
    signal: AbortSignal.timeout(probeCaps.deadlineMs),
    ...(target.authorization ? { authorization: target.authorization } : {}),
  });
  try {
    if (found.connections.length === 0) throw noAgent(found, target);
    const answer = await use(found);
    // The agent's JSON is answered again, serialized recursively: a hostile depth would exhaust the stack.
    if (!withinJsonDepth(answer))
      throw new ApError(
        'agent_bad_response',
        `${target.url} answered with JSON nested deeper than ${MAX_JSON_DEPTH} levels.`,
      );
    return answer;
  } finally {
    await found.close();
  }
}

function noAgent(found: AgentDiscovery, target: AgentTarget): ApError {
  const refused = found.fetchFailures.find((f) => f.reason === 'forbidden_address');
  if (refused) return notPublic(target, refused);
  if (found.authRequired) return authRequired(target);
  if (found.latencyMs === undefined) {
    const why = found.fetchFailure ? found.fetchFailure.message : (found.problems.mcp ?? 'no answer');
    return new ApError('agent_unreachable', `Could not reach ${target.url}: ${why}.`);
  }
  return new ApError(
    'not_an_agent',
    `${target.url} answered, but not as an agent: MCP: ${found.problems.mcp ?? 'no answer'}; A2A: ${found.problems.a2a ?? 'no card'}.`,
  );
}

/** A task's payload, and how long the call took. */
export interface TaskCall {
  data: Record<string, unknown>;
  latencyMs: number;
}

/**
 * Calls `task` and returns its payload, which must carry the array `expected` (else
 * `agent_bad_response`); the agent's error envelope is `agent_task_failed`, naming its code.
 */
export async function callTask(
  found: AgentDiscovery,
  agent: AgentConnection,
  target: AgentTarget,
  task: string,
  args: Record<string, unknown>,
  expected: string,
): Promise<TaskCall> {
  const started = performance.now();
  let outcome;
  try {
    outcome = await agent.call(task, args);
  } catch (err) {
    const failure = findFetchError(err);
    if (failure?.reason === 'forbidden_address') throw notPublic(target, failure);
    if (failure) throw new ApError('agent_unreachable', `${target.url} did not answer ${task}: ${failure.message}.`);
    if (found.authRequired) throw authRequired(target);
    throw new ApError('agent_bad_response', `${target.url} did not answer ${task} readably: ${describeError(err)}.`);
  }
  const latencyMs = Math.round(performance.now() - started);
  if (!outcome.ok) {
    if (outcome.error)
      throw new ApError(
        'agent_task_failed',
        `${target.url} answered ${task} with ${outcome.error.code}: ${outcome.error.message.slice(0, 300)}`,
      );
    throw new ApError(
      'agent_bad_response',
      `${target.url} answered ${task} as an error without a readable error object.`,
    );
  }
  const { context: _context, ...data } = outcome.data;
  if (!Array.isArray(data[expected])) {
    const status =
      typeof data['status'] === 'string'
        ? ` (it answered status ${data['status']}: a probe does not wait for a task that goes on)`
        : '';
    throw new ApError('agent_bad_response', `${target.url} answered ${task} without a ${expected} array${status}.`);
  }
  return { data, latencyMs };
}

function notPublic(target: AgentTarget, failure: FetchError): ApError {
  return new ApError('url_not_public', `${target.url} is not probed: ${failure.message}.`);
}

function authRequired(target: AgentTarget): ApError {
  const message = target.authorization
    ? `${target.url} refused the credential given in ap-agent-authorization (401).`
    : `${target.url} asks for a credential (401); pass it in the ap-agent-authorization header.`;
  return new ApError('agent_auth_required', message);
}
