// Prints the path of one `create_media_buy` tools/call through src/, as docs/architecture.md lists
// it ("An agent request: create_media_buy over MCP"): each function it runs, in order, indented by
// its depth in the call stack, then the files in the order first visited. A line marked `!` enters
// a file already on the call stack below it. The test deployment runs in this process on PGlite,
// debugged from a worker thread (a thread cannot pause itself): a first call warms up, a second
// finds the functions the call runs (V8's precise coverage), a third stops at each of them.
// Usage: node scripts/request-path.ts
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { buyer, createArgs, startSales } from '../test/agents/sales/media-buys/harness.ts';
import { ManualClock } from '../test/support/clock.ts';
import { engines } from '../test/support/engines.ts';

interface Frame {
  url: string;
  fn: string;
  line: number;
}

const debugger_ = `
const { Session } = require('node:inspector/promises');
const { parentPort } = require('node:worker_threads');
const session = new Session();
session.connectToMainThread();
const scripts = new Map();
const hits = [];
const breakpoints = [];
session.on('Debugger.scriptParsed', ({ params }) => scripts.set(params.scriptId, params.url));
const frame = (f) => ({ url: f.url || scripts.get(f.location?.scriptId ?? f.scriptId) || '', fn: f.functionName, line: (f.location?.lineNumber ?? f.lineNumber) + 1 });
session.on('Debugger.paused', ({ params }) => {
  const stack = params.callFrames.map(frame);
  for (let parent = params.asyncStackTrace; parent; parent = parent.parent) stack.push(...parent.callFrames.map(frame));
  hits.push(stack);
  session.post('Debugger.resume').catch(() => {});
});
const steps = {
  async enable() {
    await session.post('Debugger.enable');
    await session.post('Debugger.setAsyncCallStackDepth', { maxDepth: 64 });
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  },
  async reset() {
    await session.post('Profiler.takePreciseCoverage');
  },
  async arm() {
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    for (const script of result) {
      if (!script.url.includes('/src/')) continue;
      const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
      const at = (offset) => {
        const before = scriptSource.slice(0, offset).split('\\n');
        return { scriptId: script.scriptId, lineNumber: before.length - 1, columnNumber: before.at(-1).length };
      };
      for (const fn of script.functions) {
        const { startOffset, endOffset, count } = fn.ranges[0];
        if (count === 0 || (startOffset === 0 && fn.functionName === '')) continue;
        // The function's own first breakable place: its start may belong to the enclosing function.
        const { locations } = await session.post('Debugger.getPossibleBreakpoints', { start: at(startOffset), end: at(endOffset), restrictToFunction: true });
        if (locations.length === 0) continue;
        breakpoints.push((await session.post('Debugger.setBreakpoint', { location: locations[0] })).breakpointId);
      }
    }
  },
  async stop() {
    for (const breakpointId of breakpoints) await session.post('Debugger.removeBreakpoint', { breakpointId });
    return hits;
  },
};
parentPort.on('message', async (step) => parentPort.postMessage(await steps[step]()));
`;

const worker = new Worker(debugger_, { eval: true });
const ask = async (step: string): Promise<unknown> => {
  const answer = once(worker, 'message');
  worker.postMessage(step);
  return (await answer)[0];
};

const clock = new ManualClock();
const server = await startSales(
  engines.find((e) => e.name === 'pglite')!,
  clock,
);
const b = await buyer(server, clock);
const call = async () => {
  const answer = await b.client.callTool({
    name: 'create_media_buy',
    arguments: createArgs(clock, b.account, b.domain),
  });
  if (answer.isError) throw new Error(JSON.stringify(answer.content));
};
let stacks: Frame[][];
try {
  await call();
  await ask('enable');
  await call();
  await ask('reset');
  await call();
  await ask('arm');
  await call();
  stacks = (await ask('stop')) as Frame[][];
} finally {
  await b.client.close();
  await server.close();
  await worker.terminate();
}

const root = new URL('..', import.meta.url).href;
const fileOf = (frame: Frame) => frame.url.slice(root.length);
// Not the request's path: the database driver parsing a row, and the tenants' background passes.
const driver = new Set(['getTypeParser', 'parseInt8']);
const visited: string[] = [];
let calls = 0;
let reentries = 0;
let started = false;
for (const stack of stacks) {
  const frames = stack.filter((f) => f.url.startsWith(`${root}src/`)).map(fileOf);
  const top = stack[0]!;
  // The request starts where it is given its id.
  started ||= frames[0] === 'src/http/request-id.ts';
  if (!started || driver.has(top.fn) || frames.includes('src/agents/index.ts')) continue;
  const chain = frames.filter((file, i) => file !== frames[i - 1]);
  const reentry = chain.indexOf(chain[0]!, 1) > 0;
  calls++;
  if (reentry) reentries++;
  if (!visited.includes(chain[0]!)) visited.push(chain[0]!);
  console.log(`${reentry ? '!' : ' '} ${'  '.repeat(chain.length - 1)}${fileOf(top)}:${top.line} ${top.fn}`);
}
console.log(`\n${calls} calls in ${visited.length} files, ${reentries} entering a file already on the stack:`);
for (const file of visited) console.log(`  ${file}`);
