import type autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import type { PacedOptions, PacedResult } from './paced-load.ts';
import type { SoakOptions, SoakResult } from './soak-client.ts';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** A request sequence each connection cycles through (paths, methods, bodies). */
  requests?: autocannon.Request[];
  method?: autocannon.Request['method'];
  headers?: Record<string, string>;
  body?: string;
  /** Replace `freshKeyMark` in each request's body and path by a new UUID (an idempotency key, or a URL never asked before, per call). */
  freshKeys?: boolean;
}

/** Where a request body wants a new UUID when `freshKeys` is set. */
export const freshKeyMark = '__FRESH_UUID__';

/** What load-child.ts is asked to do. */
export type LoadJob =
  | ({ kind: 'max'; url: string } & LoadOptions)
  | ({ kind: 'paced'; origin: string; paths: readonly string[] } & PacedOptions)
  | ({ kind: 'soak' } & SoakOptions);

/** Drives one URL as hard as it answers, with autocannon in a process of its own, and returns what a comparison needs. */
export function load(url: string, options: LoadOptions): Promise<LoadResult> {
  return inChild({ kind: 'max', url, ...options });
}

export async function inChild(job: LoadJob & { kind: 'max' }): Promise<LoadResult>;
export async function inChild(job: LoadJob & { kind: 'paced' }): Promise<PacedResult>;
export async function inChild(job: LoadJob & { kind: 'soak' }): Promise<SoakResult>;
export async function inChild(job: LoadJob): Promise<LoadResult | PacedResult | SoakResult> {
  const script = fileURLToPath(new URL('./load-child.ts', import.meta.url));
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(job));
  const [output, [code]] = await Promise.all([text(child.stdout), once(child, 'exit') as Promise<[number | null]>]);
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(output) as LoadResult | PacedResult | SoakResult;
}

export const benchOptions: LoadOptions = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
