import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

/**
 * A PostgreSQL server of the test's own (Debian's binaries, a fresh cluster in a temporary
 * directory, trust auth, on a free port), so a drill can stop and start it without touching the
 * server every other test file shares. As root, the server runs as the `postgres` user, as
 * PostgreSQL refuses to run as root.
 */
export interface PrivatePostgres {
  url: string;
  /** Fast shutdown: open connections are cut, as in a restart or a failover. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const binDir = (() => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0]!, 'bin');
})();
const asRoot = process.getuid?.() === 0;

/** The path of one of Debian's PostgreSQL programs (pg_dump, pg_restore, createdb…), of the version installed. */
export const pgBinary = (program: string): string => join(binDir, program);

async function run(program: string, args: string[]): Promise<void> {
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(binDir, program), ...args]]
    : [join(binDir, program), args];
  const child = spawn(command, argv as string[], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${program} ${args.join(' ')} exited with ${code}: ${stderr}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'ap-postgres-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  let running = false;
  const start = async () => {
    await run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    running = true;
  };
  const stop = async () => {
    await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async close() {
      if (running) await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
