import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts bare-server.ts in its own process; with `body`, it answers every path with it, and with
 * `busyMicros`, only after spinning that long on each request.
 */
export async function startBare(body?: string, busyMicros = 0): Promise<BareServer> {
  const script = fileURLToPath(new URL('./bare-server.ts', import.meta.url));
  const child = spawn(process.execPath, [script], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BARE_BUSY_MICROS: String(busyMicros),
      ...(body === undefined ? {} : { BARE_BODY: 'stdin' }),
    },
  });
  child.stdin.end(body ?? '');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const url = line.replace('listening at ', '');
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
