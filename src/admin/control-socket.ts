import { existsSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ApError, type ErrorCode } from '../protocol/errors.ts';
import { isAdminCommand, runAdminCommand, type AdminServices } from './commands.ts';

/**
 * An embedded (PGlite) database belongs to one process. While `ap serve` holds it, the CLI's
 * admin commands reach it through a Unix socket in the data directory, readable only by the
 * owner of that directory's files: file permissions are the credential.
 */
export function controlSocketPath(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string | undefined {
  if (config.databaseUrl || config.dataDir.startsWith('memory://')) return undefined;
  return join(config.dataDir, 'ap.sock');
}

export async function openControlSocket(db: Database, path: string, services: AdminServices): Promise<Server> {
  // A socket file left by a process that died is stale: nothing answers it any more.
  if (existsSync(path) && !(await answers(path))) rmSync(path, { force: true });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      const { command, args } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { command: string; args: unknown };
      if (req.method !== 'POST' || !isAdminCommand(command)) throw new ApError('invalid_request', `Unknown command "${command}".`);
      reply(200, { result: await runAdminCommand(db, command, args as never, services) });
    } catch (err) {
      const known = err instanceof ApError;
      reply(known ? err.status : 500, { error: known ? err.code : 'internal_error', message: err instanceof Error ? err.message : String(err) });
    }
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  await chmod(path, 0o600);
  return server;
}

export async function closeControlSocket(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(path, { force: true });
}

/**
 * Whether a server answers on the socket (a session then sends it every command). Only a socket
 * nobody listens on counts as no server: any other failure (a socket of another user) is thrown,
 * so the CLI never opens an embedded database a server may hold.
 */
export async function controlSocketAnswers(path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  return post(path, '{}').then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') return false;
      throw err;
    },
  );
}

/** Runs `command` on the server behind the socket; undefined when no server answers there. */
export async function viaControlSocket(path: string, command: string, args: unknown): Promise<{ result: unknown } | undefined> {
  if (!existsSync(path)) return undefined;
  const answer = await post(path, JSON.stringify({ command, args })).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (!answer) return undefined;
  const body = JSON.parse(answer.body) as { result?: unknown; error?: string; message?: string };
  if (answer.status !== 200) throw new ApError((body.error ?? 'internal_error') as ErrorCode, body.message);
  return { result: body.result };
}

function post(socketPath: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject).end(body);
  });
}

async function answers(path: string): Promise<boolean> {
  return post(path, '{}').then(
    () => true,
    () => false,
  );
}
