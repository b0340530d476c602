import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serveAp, type ServingAp } from '../support/cli.ts';
import { Conditions } from '../support/events.ts';

const root = path.join(import.meta.dirname, '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** One step of the tour: a script (one command, or a few lines with a here-document) and what it must print. */
interface Step {
  script: string;
  expect: string[];
  /** It keeps running (a receiver): started, and what it prints is awaited by later `⇒` lines. */
  background?: boolean;
  /** Lines a running step must print, in the order written. */
  awaited?: string[];
}

/**
 * The README's tour in commands, as written: between `<!-- tour -->` and `<!-- /tour -->`, each
 * command followed by `# → a … b` (what it prints holds every fragment between the ellipses); a
 * command ending in `# keeps running` runs on beside the others, and `# ⇒ text` waits for it to
 * print `text`. `export` lines say what the environment holds; the test sets it.
 */
function tourSteps(): Step[] {
  const start = readme.indexOf('<!-- tour -->');
  const end = readme.indexOf('<!-- /tour -->');
  assert.ok(start > 0 && end > start, 'the README marks its tour');
  const lines = readme
    .slice(start, end)
    .split('\n')
    .filter((l) => !l.startsWith('```') && !l.startsWith('<!--'));
  const steps: Step[] = [];
  let script: string[] = [];
  let background: Step | undefined;
  for (const line of lines) {
    if (line.startsWith('# → ')) {
      steps.push({ script: script.join('\n'), expect: line.slice(4).split(' … ') });
      script = [];
    } else if (line.startsWith('# ⇒ ')) {
      assert.ok(background, `“${line}” follows a command that keeps running`);
      background.awaited!.push(line.slice(4));
    } else if (/#\s*keeps running$/.test(line)) {
      background = { script: line.replace(/#\s*keeps running$/, '').trim(), expect: [], background: true, awaited: [] };
      steps.push(background);
    } else if (line.trim() !== '' && !line.startsWith('#') && !line.startsWith('export ')) script.push(line);
  }
  assert.deepEqual(script, [], 'every command of the tour says what it answers');
  return steps;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the README’s tour, run as written against a fresh demo server', () => {
  const adminKey = randomBytes(24).toString('hex');
  let ap: ServingAp;
  let listenerPort: number;
  let env: NodeJS.ProcessEnv;
  const running: ChildProcess[] = [];

  before(async () => {
    listenerPort = await freePort();
    ap = await serveAp(['--data-dir', 'memory://'], {
      AP_DEMO: 'true',
      AGENTS: 'true',
      AP_ADMIN_KEY: adminKey,
      // As the tour says to start it for webhooks; an activation ends in a second here.
      AP_FETCH_ALLOW: `127.0.0.1:${listenerPort}`,
      SIGNALS_ACTIVATION_SECONDS: '1',
    });
    const host = new URL(ap.url).host;
    env = {
      ...process.env,
      AP: ap.url,
      KEY: adminKey,
      AP_FETCH_ALLOW: `${host},127.0.0.1:${listenerPort}`,
      AP_TOKEN: 'ap-test-deployment-public',
    };
  });
  after(async () => {
    // The whole group: bash, npm and the receiver it started.
    for (const child of running) {
      const exited = new Promise((resolve) => child.once('close', resolve));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
    }
    await ap?.stop();
  });

  /** The script as the tour writes it, on this test's listener port. */
  const asHere = (script: string) => script.replaceAll('3100', String(listenerPort));

  it('answers every command as the README says', async () => {
    // What a command that keeps running must print, checked once the commands after it have run.
    const awaited: Array<() => Promise<void>> = [];
    for (const step of tourSteps()) {
      if (step.background) {
        const receiver = started(asHere(step.script));
        // Ready once it says where it listens.
        await receiver.printed(String(listenerPort));
        for (const text of step.awaited ?? []) awaited.push(() => receiver.printed(text));
        continue;
      }
      const { code, output } = await run(asHere(step.script));
      assert.equal(code, 0, `${step.script}\n${output}`);
      for (const fragment of step.expect)
        assert.ok(output.includes(fragment), `${step.script}\nprints “${fragment}”:\n${output}`);
    }
    for (const wait of awaited) await wait();
  });

  /** A command that keeps running: `printed(text)` resolves once it has printed `text`. */
  function started(script: string): { printed: (text: string) => Promise<void> } {
    const child = spawn('bash', ['-c', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.push(child);
    let output = '';
    const arrivals = new Conditions();
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      arrivals.changed();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    // Bounded, so a receiver that never prints fails the test with what it did print.
    const printed = async (text: string) => {
      const bound = AbortSignal.timeout(60_000);
      const timedOut = new Promise<never>((_, reject) =>
        bound.addEventListener('abort', () => reject(new Error(`${script}\nnever printed “${text}”:\n${output}`))),
      );
      await Promise.race([arrivals.until(() => output.includes(text)), timedOut]);
    };
    return { printed };
  }

  async function run(script: string): Promise<{ code: number | null; output: string }> {
    const child = spawn('bash', ['-c', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, output };
  }
});
