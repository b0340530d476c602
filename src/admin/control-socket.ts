import { existsSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Database } from '../db/database.ts';
import { ApError } from '../protocol/errors.ts';
import { isAdminCommand, runAdminCommand, type AdminServices } from './commands.ts';
import { anythingAnswers } from './control-client.ts';

/**
 * The server's side of the control socket (control-client.ts is the CLI's): while `ap serve`
 * holds an embedded database, it runs the admin commands the CLI sends here.
 */
export async function openControlSocket(db: Database, path: string, services: AdminServices): Promise<Server> {
  // A socket file left by a process that died is stale: nothing answers it any more.
  if (existsSync(path) && !(await anythingAnswers(path))) rmSync(path, { force: true });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      const { command, args } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        command: string;
        args: unknown;
      };
      if (req.method !== 'POST' || !isAdminCommand(command))
        throw new ApError('invalid_request', `Unknown command "${command}".`);
      reply(200, { result: await runAdminCommand(db, command, args as never, services) });
    } catch (err) {
      const known = err instanceof ApError;
      reply(known ? err.status : 500, {
        error: known ? err.code : 'internal_error',
        message: err instanceof Error ? err.message : String(err),
      });
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
