import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import {
  ApAgentError,
  asAgentError,
  callApAgent,
  fetchThrough,
  listTools,
  type AgentProtocol,
  type TaskUpdate,
} from '../../client/index.ts';
import { parseAllowList } from '../../net/allow-list.ts';
import { SafeFetch } from '../../net/safe-fetch.ts';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { isRecord } from '../../protocol/json-values.ts';

/** What `ap call` and `ap tools` exit with: a script tells the three kinds of failure apart. */
export const exitCodes = {
  ok: 0,
  agentError: 1,
  inputError: 2,
  transportError: 3,
  timeout: 4,
  notAuthorized: 5,
  interrupted: 130,
} as const;

interface AgentFlags {
  protocol?: AgentProtocol;
  token?: string;
  allow?: string;
  json?: boolean;
}

interface CallFlags extends AgentFlags {
  args?: string;
  argsFile?: string;
  wait?: boolean;
  timeout: number;
  registry?: string;
  publisher?: string;
}

// Listing tools is one or two round trips: an agent that takes longer is not answering.
const toolsTimeoutMs = 60_000;

const exitHelp = `
Exit codes: 0 done; 1 the agent answered an error; 2 bad input (arguments, flags); 3 transport
(unreachable, not an agent, HTTP 5xx); 4 timed out; 5 the publisher has not authorized the agent
(--registry); 130 interrupted.
The credential comes from --token or AP_TOKEN. Agents on private addresses (localhost included)
are refused unless --allow (or AP_FETCH_ALLOW) names them, e.g. --allow localhost:3000.`;

/** `ap call <agent-url> <task>`: runs one task on any agent, over MCP or A2A (callApAgent). */
export function callCommand(): Command {
  return withAgentOptions(new Command('call'))
    .description('Call a task on an agent (MCP or A2A) and print its payload')
    .argument('<agent-url>', "the agent's MCP endpoint, A2A card, or the base its card is under")
    .argument('<task>', 'the task to run, e.g. get_products')
    .argument('[input]', '- to read the arguments (JSON) from standard input')
    .option('--args <json>', 'the task arguments as a JSON object')
    .option('--args-file <path>', 'read the task arguments (a JSON object) from a file')
    .option('--wait', 'wait for a long-running task to finish, with a progress line on a terminal')
    .option('--timeout <seconds>', 'give up after this long, waiting included', seconds, 600)
    .option('--registry <url>', 'first check through this registry that --publisher authorizes the agent')
    .option('--publisher <domain>', 'the publisher whose adagents.json must authorize the agent (with --registry)')
    .addHelpText('after', exitHelp)
    .action(async (agentUrl: string, task: string, input: string | undefined, flags: CallFlags, command: Command) => {
      const args = await taskArguments(input, flags).catch((err: Error) =>
        command.error(`error: ${err.message}`, { exitCode: exitCodes.inputError }),
      );
      if (Boolean(flags.registry) !== Boolean(flags.publisher))
        command.error('error: --registry and --publisher go together', { exitCode: exitCodes.inputError });
      if (flags.registry && !URL.canParse(flags.registry))
        command.error(`error: --registry ${flags.registry} is not a URL`, { exitCode: exitCodes.inputError });
      await run(flags, command, async (fetch, signal) => {
        if (flags.registry && flags.publisher)
          await requireAuthorization(fetch, flags.registry, flags.publisher, agentUrl, command);
        const progress = new ProgressLine(process.stderr.isTTY === true && !flags.json);
        try {
          const payload = await callApAgent({
            agentUrl,
            task,
            arguments: args,
            fetch,
            signal,
            wait: flags.wait ?? false,
            timeoutMs: flags.timeout * 1000,
            ...credentialOf(flags),
            ...(flags.protocol ? { protocol: flags.protocol } : {}),
            onProgress: (update) => progress.show(update),
            onRetry: (error, waitMs) => progress.note(`${error.code}: retrying in ${(waitMs / 1000).toFixed(1)} s`),
          });
          progress.clear();
          process.stdout.write(`${JSON.stringify(payload, null, flags.json ? undefined : 2)}\n`);
        } finally {
          progress.clear();
        }
      });
    });
}

/** `ap tools <agent-url>`: the tasks an agent offers, with their input schemas (MCP). */
export function toolsCommand(): Command {
  return withAgentOptions(new Command('tools'))
    .description('List the tasks an agent offers, with their arguments')
    .argument('<agent-url>', "the agent's MCP endpoint, A2A card, or the base its card is under")
    .addHelpText('after', exitHelp)
    .action(async (agentUrl: string, flags: AgentFlags, command: Command) => {
      await run(flags, command, async (fetch, signal) => {
        const tools = await listTools({
          agentUrl,
          fetch,
          signal: AbortSignal.any([signal, AbortSignal.timeout(toolsTimeoutMs)]),
          ...credentialOf(flags),
          ...(flags.protocol ? { protocol: flags.protocol } : {}),
        });
        if (flags.json) return void process.stdout.write(`${JSON.stringify(tools)}\n`);
        for (const tool of tools) {
          const properties = isRecord(tool.inputSchema?.['properties'])
            ? Object.keys(tool.inputSchema['properties'])
            : [];
          const required = new Set(
            Array.isArray(tool.inputSchema?.['required']) ? (tool.inputSchema['required'] as string[]) : [],
          );
          const args = properties.map((p) => (required.has(p) ? p : `[${p}]`)).join(' ');
          process.stdout.write(
            `${tool.name}${args ? ` ${args}` : ''}\n${tool.description ? `    ${tool.description.split('\n')[0]}\n` : ''}`,
          );
        }
      });
    });
}

function withAgentOptions(command: Command): Command {
  return (
    command
      // A usage mistake is an input error (2), as the agent's own errors are 1.
      .exitOverride((err) => {
        throw err.exitCode === 1 ? new CommanderError(exitCodes.inputError, err.code, err.message) : err;
      })
      .addOption(new Option('--protocol <protocol>', 'mcp or a2a (detected when not given)').choices(['mcp', 'a2a']))
      .option('--token <token>', 'the bearer credential (default: AP_TOKEN)')
      .option('--allow <entries>', 'host:port entries that may be on private addresses (default: AP_FETCH_ALLOW)')
      .option('--json', 'machine output: the payload as one JSON line; an error as JSON on standard error')
  );
}

/** Runs the work, turning its failure into a message (or JSON) and the exit code of its kind. */
async function run(
  flags: AgentFlags,
  command: Command,
  work: (fetch: typeof globalThis.fetch, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const interrupted = new AbortController();
  const onSignal = () => interrupted.abort();
  process.once('SIGINT', onSignal);
  const fetcher = clientFetch(flags);
  let failed = false;
  try {
    await work(fetchThrough(fetcher), interrupted.signal);
  } catch (thrown) {
    if (thrown instanceof CommanderError) throw thrown;
    failed = true;
    const err = asAgentError(thrown, interrupted.signal);
    if (flags.json) process.stderr.write(`${JSON.stringify({ error: err.toJSON() })}\n`);
    else
      process.stderr.write(
        `ap: ${err.code}: ${err.message}${err.field ? ` (field ${err.field})` : ''}${err.suggestion ? `\n  suggestion: ${err.suggestion}` : ''}\n`,
      );
    const code = {
      input: exitCodes.inputError,
      agent: exitCodes.agentError,
      transport: exitCodes.transportError,
      timeout: exitCodes.timeout,
      canceled: exitCodes.interrupted,
    }[err.kind];
    throw new CommanderError(
      err.code === 'NOT_AUTHORIZED_BY_PUBLISHER' ? exitCodes.notAuthorized : code,
      `ap.${command.name()}`,
      err.message,
    );
  } finally {
    process.off('SIGINT', onSignal);
    // A request given up on (a timeout, Ctrl-C) may still be under way: the process exits with its
    // code now rather than wait for it.
    if (!failed) await fetcher.close();
  }
}

function credentialOf(flags: AgentFlags): { credential?: string } {
  const token = flags.token ?? process.env['AP_TOKEN'];
  return token ? { credential: token } : {};
}

// The SSRF-safe client, as everywhere: the URL is the user's, so private addresses need naming.
function clientFetch(flags: AgentFlags): SafeFetch {
  return new SafeFetch({
    allow: parseAllowList(flags.allow ?? process.env['AP_FETCH_ALLOW']),
    timeoutMs: 10 * 60_000,
    maxBytes: 32 * 1024 * 1024,
  });
}

async function taskArguments(input: string | undefined, flags: CallFlags): Promise<Record<string, unknown>> {
  if (input !== undefined && input !== '-')
    throw new Error(
      `unexpected argument ${JSON.stringify(input)}: pass the arguments with --args, --args-file or - (standard input)`,
    );
  const sources = [flags.args !== undefined, flags.argsFile !== undefined, input === '-'].filter(Boolean).length;
  if (sources > 1) throw new Error('give the arguments one way: --args, --args-file or - (standard input)');
  const stdin = input === '-' || flags.argsFile === '-';
  const raw =
    flags.args ??
    (stdin ? await text(process.stdin) : flags.argsFile !== undefined ? await readFile(flags.argsFile, 'utf8') : '{}');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new Error(`the arguments are not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!isRecord(parsed)) throw new Error('the arguments must be a JSON object');
  return parsed;
}

/** Refuses an agent the publisher's adagents.json does not authorize, as the registry knows it. */
async function requireAuthorization(
  fetch: typeof globalThis.fetch,
  registry: string,
  publisher: string,
  agentUrl: string,
  command: Command,
): Promise<void> {
  const canonical = canonicalAgentUrl(agentUrl);
  if (!canonical) command.error(`error: ${agentUrl} is not an agent URL`, { exitCode: exitCodes.inputError });
  const url = new URL(`/api/registry/lookup/domain/${encodeURIComponent(publisher)}`, registry);
  const response = await fetch(url).catch((err: unknown) => {
    throw new ApAgentError(
      'transport',
      'TRANSPORT_ERROR',
      `The registry at ${registry} did not answer: ${(err as Error).message}`,
    );
  });
  const body = (await response.json().catch(() => undefined)) as
    { agents?: Array<{ agent_url_canonical?: string; delegation_type?: string }> } | undefined;
  if (!response.ok || !body || !Array.isArray(body.agents))
    throw new ApAgentError(
      'transport',
      'TRANSPORT_ERROR',
      `The registry answered HTTP ${response.status} for ${publisher}`,
      { status: response.status },
    );
  if (!body.agents.some((a) => a.agent_url_canonical === canonical)) {
    throw new ApAgentError(
      'agent',
      'NOT_AUTHORIZED_BY_PUBLISHER',
      `${publisher}'s adagents.json (as ${registry} knows it) does not authorize ${agentUrl}`,
    );
  }
}

/** The long-running task's state on one terminal line, rewritten in place. */
class ProgressLine {
  readonly #tty: boolean;
  #shown = false;

  constructor(tty: boolean) {
    this.#tty = tty;
  }

  show(update: TaskUpdate): void {
    const progress =
      isRecord(update.progress) && typeof update.progress['percentage'] === 'number'
        ? ` ${update.progress['percentage']}%`
        : '';
    this.note(`task ${update.task_id}: ${update.status}${progress}${update.message ? ` (${update.message})` : ''}`);
  }

  note(line: string): void {
    if (this.#tty) {
      process.stderr.write(`\r\x1b[2K${line}`);
      this.#shown = true;
    } else process.stderr.write(`${line}\n`);
  }

  clear(): void {
    if (this.#shown) process.stderr.write('\r\x1b[2K');
    this.#shown = false;
  }
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('not a number of seconds');
  return n;
}
