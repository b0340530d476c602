import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface BareServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts bare-server.ts in its own process; with `body`, it answers every path with it. */
export async function startBare(body?: string): Promise<BareServer> {
  const script = fileURLToPath(new URL('./bare-server.ts', import.meta.url));
  const child = spawn(process.execPath, [script, ...(body === undefined ? [] : [body])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const url = line.replace('listening at ', '');
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
