import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { ApError, type ErrorCode } from '../protocol/errors.ts';

/**
 * The CLI's side of the control socket (see control-socket.ts for the server's). Kept apart from
 * the commands themselves so that a CLI talking to a running server loads none of them.
 *
 * An embedded (PGlite) database belongs to one process. While `ap serve` holds it, the CLI's
 * admin commands reach it through a Unix socket in the data directory, readable only by the
 * owner of that directory's files: file permissions are the credential.
 */
export function controlSocketPath(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string | undefined {
  if (config.databaseUrl || config.dataDir.startsWith('memory://')) return undefined;
  return join(config.dataDir, 'ap.sock');
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
export async function viaControlSocket(
  path: string,
  command: string,
  args: unknown,
): Promise<{ result: unknown } | undefined> {
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

/** Whether anything at all answers on the socket: a file nothing answers was left by a process that died. */
export async function anythingAnswers(path: string): Promise<boolean> {
  return post(path, '{}').then(
    () => true,
    () => false,
  );
}

function post(socketPath: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject).end(body);
  });
}
