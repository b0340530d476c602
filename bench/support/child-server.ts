import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Runs a server script (agent-server.ts, registry-server.ts) in a process of its own and resolves
 * with its URL once it prints `listening at <url>`; its other output lines are read and dropped.
 */
export async function startServerProcess(
  script: URL,
  env: Record<string, string>,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^listening at (\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`${script.pathname} exited before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
