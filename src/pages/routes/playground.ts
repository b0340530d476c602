import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import {
  asAgentError,
  callApAgent,
  openAgent,
  type AgentConnection,
  type TaskDescription,
} from '../../client/index.ts';
import { page, sendHtml } from '../../http/html.ts';
import type { ServedAgent } from '../../registry/agents/index.ts';
import type { Json } from '../api.ts';
import { exampleArguments } from '../example-arguments.ts';
import { object, text } from '../parts.ts';
import { fields } from './form-fields.ts';

export interface PlaygroundOptions {
  /** The agents this deployment serves, and the credential they accept. */
  served: () => readonly ServedAgent[];
  credential: string | undefined;
  /**
   * How the playground reaches an agent, for a page served at `origin`: this server's own (at its
   * base URL or the origin the visitor reached it at) in process, any other through the SSRF-safe client.
   */
  fetch: (origin: string) => typeof fetch;
}

/** A call waits at most this long for its answer; a long-running task answers at once and is followed. */
const callTimeoutMs = 60_000;
const working = new Set(['submitted', 'working', 'input-required']);

/**
 * `/playground`: call any task of an agent from the browser. Pick one of this deployment's agents
 * (or any URL the server may reach), then a task, whose arguments start from its input schema;
 * the answer is shown as the agent sent it, creative previews inline, and a long-running task is
 * followed until it ends (`/assets/playground.js` checks by itself; without it, a button does).
 * Calls go through the protocol's client (`src/client`), as `ap call` makes them.
 */
export function playgroundRoute(app: FastifyInstance, options: PlaygroundOptions): void {
  const show = (reply: FastifyReply, title: string, body: string, status = 200) =>
    sendHtml(reply, page(title, body, { section: '/playground', scripts: ['playground.js'] }), status);

  app.get<{ Querystring: { agent?: string; task?: string } }>(
    '/playground',
    {
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: { agent: { type: 'string', maxLength: 2048 }, task: { type: 'string', maxLength: 128 } },
        },
      },
    },
    async (request, reply) => {
      const agent = request.query.agent?.trim();
      if (!agent) return show(reply, 'Playground', pickAgent(options.served()));
      const credential = credentialFor(agent, options, originOf(request));
      let tasks: TaskDescription[];
      try {
        tasks = await withAgent(options.fetch(originOf(request)), agent, credential, (a) => a.describeTasks());
      } catch (err) {
        return show(reply, 'Playground', pickAgent(options.served(), agent) + failure(err), 502);
      }
      const task = tasks.find((t) => t.name === request.query.task);
      if (!task) return show(reply, 'Playground', pickAgent(options.served(), agent) + pickTask(agent, tasks));
      const args = JSON.stringify(exampleArguments(task.inputSchema), null, 2);
      return show(reply, `Playground: ${task.name}`, callForm({ agent, task: task.name, credential, args }, task));
    },
  );

  app.post('/playground', { schema: { hide: true } }, async (request, reply) => {
    const form = fields(request.body, 100_000);
    const agent = form['agent'] ?? '';
    const task = form['task'] ?? '';
    const credential = form['credential'] || undefined;
    if (form['action'] === 'status')
      return show(reply, `Playground: ${task}`, await followed(options.fetch(originOf(request)), form), 200);
    let args: Json;
    try {
      args = object(JSON.parse(form['arguments'] || '{}'));
    } catch (err) {
      const problem = html`<p class="error" role="alert">The arguments are not JSON: ${(err as Error).message}</p>`;
      return show(
        reply,
        `Playground: ${task}`,
        callForm({ agent, task, credential, args: form['arguments'] ?? '' }) + problem,
        400,
      );
    }
    const result = await answerOf(request, options.fetch(originOf(request)), agent, credential, task, args);
    return show(
      reply,
      `Playground: ${task}`,
      callForm({ agent, task, credential, args: form['arguments'] ?? '' }) + result,
    );
  });
}

async function withAgent<T>(
  reach: typeof fetch,
  agentUrl: string,
  credential: string | undefined,
  use: (agent: AgentConnection) => Promise<T>,
): Promise<T> {
  const agent = await openAgent({
    agentUrl,
    fetch: reach,
    signal: AbortSignal.timeout(callTimeoutMs),
    ...(credential ? { credential } : {}),
  });
  try {
    return await use(agent);
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** Where the visitor reached this server: an agent URL there is one of this server's own. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The deployment's own agents (at its base URL, or the origin the visitor uses) take its public test credential, filled in for them. */
function credentialFor(agent: string, options: PlaygroundOptions, origin: string): string | undefined {
  if (!URL.canParse(agent)) return undefined;
  const url = new URL(agent);
  const own = options.served().some((a) => {
    const served = new URL(a.url);
    return served.pathname === url.pathname && (served.origin === url.origin || url.origin === origin);
  });
  return own ? options.credential : undefined;
}

async function answerOf(
  request: FastifyRequest,
  reach: typeof fetch,
  agentUrl: string,
  credential: string | undefined,
  task: string,
  args: Json,
): Promise<string> {
  try {
    const payload = await callApAgent({
      agentUrl,
      task,
      arguments: args,
      wait: false,
      fetch: reach,
      timeoutMs: callTimeoutMs,
      ...(credential ? { credential } : {}),
    });
    return shown(payload, { agent: agentUrl, task, credential });
  } catch (err) {
    request.log.info({ err, task }, 'playground call failed');
    return failure(err);
  }
}

/** A long-running task's state, asked again: still going (with its progress), or its end. */
async function followed(reach: typeof fetch, form: Record<string, string | undefined>): Promise<string> {
  const agent = form['agent'] ?? '';
  const credential = form['credential'] || undefined;
  const taskId = form['task_id'] ?? '';
  try {
    const outcome = await withAgent(reach, agent, credential, (a) => a.getTask(taskId));
    if (!outcome.ok) return failure(outcome.error);
    return shown(outcome.data, { agent, task: form['task'] ?? '', credential });
  } catch (err) {
    return failure(err);
  }
}

function shown(payload: Json, call: { agent: string; task: string; credential: string | undefined }): string {
  const status = text(payload['status']);
  const taskId = text(payload['task_id']);
  if (taskId && working.has(status)) {
    const progress = object(payload['progress']);
    return html`<section id="result" aria-live="polite" aria-label="Answer">
      <h2>Working: ${status}</h2>
      <p>
        Task <code>${taskId}</code> goes on at the
        agent${text(payload['message']) ? `: ${text(payload['message'])}` : '.'}
        ${typeof progress['percentage'] === 'number' ? ` ${String(progress['percentage'])}% done.` : ''}
      </p>
      <form method="post" action="/playground" id="task-status">
        <input type="hidden" name="action" value="status" /><input type="hidden" name="agent" value="${call.agent}" />
        <input type="hidden" name="task" value="${call.task}" /><input type="hidden" name="task_id" value="${taskId}" />
        <input type="hidden" name="credential" value="${call.credential ?? ''}" />
        <button type="submit">Check progress</button>
      </form>
      <pre tabindex="0"><code>${JSON.stringify(payload, null, 2)}</code></pre>
    </section>`;
  }
  const result = status === 'completed' && taskId && 'result' in payload ? object(payload['result']) : payload;
  const previews = previewUrls(result);
  return html`<section id="result" aria-live="polite" aria-label="Answer">
    <h2>${taskId ? `Task ${status}` : 'Answer'}</h2>
    !${previews.map((url, i) => html`<iframe class="preview" title="Preview ${String(i + 1)}" src="${url}" sandbox="allow-scripts"></iframe>`)}
    <pre tabindex="0"><code>${JSON.stringify(result, null, 2)}</code></pre>
  </section>`;
}

/** The creative previews an answer links (`preview_url` anywhere in it), at most four. */
function previewUrls(value: unknown, found: string[] = [], depth = 0): string[] {
  if (found.length >= 4 || depth > 8 || typeof value !== 'object' || value === null) return found;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'preview_url' && typeof child === 'string' && /^https?:\/\//.test(child)) found.push(child);
    else previewUrls(child, found, depth + 1);
    if (found.length >= 4) break;
  }
  return found;
}

function failure(err: unknown): string {
  const error = asAgentError(err);
  return html`<section id="result" aria-label="Answer">
    <h2>Failed</h2>
    <p class="error" role="alert"><code>${error.code}</code>: ${error.message}</p>
  </section>`;
}

function pickAgent(served: readonly ServedAgent[], chosen = ''): string {
  const own = served.some((a) => a.url === chosen);
  return html`<form method="get" action="/playground">
      <label for="agent-pick">One of this deployment’s agents</label>
      <select id="agent-pick" name="agent">
        !${served.map((a) => html`<option value="${a.url}" ${a.url === chosen ? ' selected' : ''}>${a.name}</option>`)}
      </select>
      <button type="submit">Choose</button>
    </form>
    <form method="get" action="/playground">
      <label for="agent-url">Or any agent’s URL (MCP endpoint or A2A card)</label>
      <input
        id="agent-url"
        name="agent"
        type="url"
        maxlength="2048"
        value="${own ? '' : chosen}"
        placeholder="https://sales.example.com/mcp"
      />
      <button type="submit" class="secondary">Open</button>
    </form>`;
}

function pickTask(agent: string, tasks: readonly TaskDescription[]): string {
  return html`<h2>Tasks of <code>${agent}</code></h2>
    <form method="get" action="/playground">
      <input type="hidden" name="agent" value="${agent}" />
      <fieldset>
        <legend>Pick a task</legend>
        !${tasks.map(
          (t, i) =>
            html`<div>
              <input type="radio" name="task" id="task-${String(i)}" value="${t.name}" ${i === 0 ? ' checked' : ''} />
              <label for="task-${String(i)}" class="inline-label"><code>${t.name}</code></label>
              <p class="muted">${(t.description ?? '').slice(0, 300)}</p>
            </div>`,
        )}
      </fieldset>
      <button type="submit">Prepare the call</button>
    </form>`;
}

function callForm(
  call: { agent: string; task: string; credential: string | undefined; args: string },
  task?: TaskDescription,
): string {
  return html`<p><a href="/playground?agent=${encodeURIComponent(call.agent)}">${call.agent}</a></p>
    !${task?.description ? html`<p class="muted">${task.description}</p>` : ''}
    <form method="post" action="/playground" id="call-form">
      <input type="hidden" name="agent" value="${call.agent}" /><input type="hidden" name="task" value="${call.task}" />
      <label for="credential">Credential (sent as a bearer token)</label>
      <input id="credential" name="credential" type="password" autocomplete="off" value="${call.credential ?? ''}" />
      <label for="arguments">Arguments (JSON)</label
      ><textarea id="arguments" name="arguments" rows="14">${call.args}</textarea>
      <button type="submit">Call ${call.task}</button>
    </form>`;
}
