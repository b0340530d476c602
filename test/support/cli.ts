import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { skipWasmTierUpFlags } from '../../src/db/pglite.ts';
import { Conditions } from './events.ts';

export const apBin = fileURLToPath(new URL('../../bin/ap.js', import.meta.url));

/**
 * How the tests start `ap`: with the Node running them and its flags for WebAssembly. `npm test`
 * keeps PGlite on V8's baseline compiler (see skipWasmTierUp): every `ap` a test starts, `ap serve`
 * too, lives seconds, and would otherwise wait at exit for optimized code it never used. A
 * benchmark, started without those flags, gets its servers as deployed.
 */
const wasmFlags = process.execArgv.filter((flag) => skipWasmTierUpFlags.includes(flag));
const apCommand = (args: string[]) => [process.execPath, [...wasmFlags, apBin, ...args]] as const;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ap <args>` to completion with the Node running the tests; `input` is its standard input. */
export async function runAp(args: string[], env: Record<string, string> = {}, input = ''): Promise<RunResult> {
  const child = spawn(...apCommand(args), { env: { ...process.env, ...env } });
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

export interface ServingAp {
  url: string;
  process: ChildProcess;
  /** Log lines written so far. */
  logs: string[];
  /** Calls `listener` with each log line from now on; the function it returns stops that. */
  onLine(listener: (line: string) => void): () => void;
  /** From now on drops log lines unread: a benchmark's load would otherwise cost this process a core's share and fill its memory. */
  discardLogs(): void;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `ap serve <args>` and resolves once it says where it listens. */
export async function serveAp(args: string[], env: Record<string, string> = {}): Promise<ServingAp> {
  const child = spawn(...apCommand(['serve', '--port', '0', ...args]), {
    // No crawl worker unless asked: it would fetch saved domains through the system's DNS. An
    // empty registry unless asked: the demo would fill an embedded database on its first start.
    // No agents unless asked, as most tests are of the registry alone.
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      CRAWL_WORKER: 'false',
      PROBE_WORKER: 'false',
      AGENT_PROFILE_EVENTS: 'false',
      AP_DEMO: 'false',
      AGENTS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    // Only a hang turns into a failure here: a busy machine can take well over 30 s to start one,
    // so the bound sits just under the test runner's own timeout (120 s).
    const timer = setTimeout(
      () =>
        reject(
          new Error(`ap serve did not start in time: ${stderr}; its last log lines:\n${logs.slice(-10).join('\n')}`),
        ),
      100_000,
    );
    lines.on('line', (line) => {
      logs.push(line);
      for (const listener of listeners) listener(line);
      const match = /"ap serving at (http:\/\/[^"]+)"/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(([code]) => reject(new Error(`ap serve exited with ${code}: ${stderr}`)));
  }).catch((err: unknown) => {
    // Nobody holds a child that never started: left running, it would keep the test process alive.
    child.kill('SIGKILL');
    throw err;
  });
  return {
    url,
    process: child,
    logs,
    onLine(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    discardLogs() {
      lines.close();
      child.stdout.resume();
    },
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}

/**
 * Resolves once `check` holds, checking now and again on every log line any of `servers` writes:
 * a test waits for what the processes say they did, not for time.
 */
export function untilLogged(servers: readonly ServingAp[], check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const stops = servers.map((server) =>
      server.onLine(() => {
        if (!check()) return;
        for (const stop of stops) stop();
        resolve();
      }),
    );
  });
}

/** Resolves once `server` says its authorization index caught up: what `/readyz` waits for. */
export function untilReady(server: ServingAp): Promise<void> {
  return untilLogged([server], () =>
    server.logs.some((line) => line.includes('authorization index caught up with the feed')),
  );
}

export interface RunningAp {
  process: ChildProcess;
  /** Lines written so far to each stream. */
  stdout: string[];
  stderr: string[];
  /** The first line on `stream` matching `pattern`, written already or still to come; rejects if `ap` exits first. */
  line(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  /** Sends the signal and resolves with the exit code once the process and both its streams are done. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a long-running `ap <args>` (not `serve`, see serveAp) whose output lines a test waits on. */
export function startAp(args: string[], env: Record<string, string> = {}): RunningAp {
  const child = spawn(...apCommand(args), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const arrivals = new Conditions();
  let exited = false;
  const closed = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      exited = true;
      arrivals.changed();
      resolve(code);
    });
  });
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream] }).on('line', (line) => {
      lines[stream].push(line);
      arrivals.changed();
    });
  }
  return {
    process: child,
    ...lines,
    async line(stream, pattern) {
      let found: string | undefined;
      await arrivals.until(() => (found = lines[stream].find((l) => pattern.test(l))) !== undefined || exited);
      if (found === undefined)
        throw new Error(
          `ap ${args.join(' ')} exited before writing ${pattern} on ${stream}:\n${lines.stderr.join('\n')}`,
        );
      return found;
    },
    async stop(signal = 'SIGTERM') {
      if (!exited) child.kill(signal);
      return closed;
    },
  };
}
