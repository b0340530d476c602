import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { publicTestCredential } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { publishAdagents } from '../test/support/authorization-world.ts';
import { untilReady, type ServingAp } from '../test/support/cli.ts';
import { readToEnd } from '../test/support/feed.ts';
import { createApiKeyFor, proveOwnership, seedOrganization } from '../test/support/identity.ts';
import { adminKey, asAdmin } from '../test/support/server.ts';
import { openSharedSchema } from '../test/support/shared-schema.ts';
import { TestReceiver } from '../test/support/webhooks.ts';
import { startBannerHost } from './support/banner-host.ts';
import type { BenchFlags } from './support/bench-flags.ts';
import { FeedReader } from './support/feed-reader.ts';
import { inChild } from './support/load.ts';
import { buildLiveWorld, buildLookupWorld, liveAdagents, livePublisher } from './support/lookup-world.ts';
import { cpuSecondsOf } from './support/process-cpu.ts';
import { rssBytesOf } from './support/process-rss.ts';
import { seededRandom } from './support/seeded-random.ts';
import type { OperationResult, SoakResult } from './support/soak-client.ts';
import { mcpOutcome, seededPicker, soakOperations, type SoakContext } from './support/soak-mix.ts';
import { mcpCall, toolResult } from './support/tool-result.ts';

/** Ten minutes unless told (`--duration`, SOAK_SECONDS). */
const DEFAULT_SECONDS = 600;
/** Requests a second over both instances: see docs/decisions.md for how it was chosen. */
const DEFAULT_RATE = 40;
const DEFAULT_SEED = 1;
/** Domains the soak's organization proved control of, each saved once before the run and again during it. */
const SAVED_DOMAINS = 25;
/** Publishers whose adagents.json the bench rewrites as a crawler would, granting and dropping an agent in turn. */
const LIVE_PUBLISHERS = 10;
const GRAPH_WRITE_EVERY_MS = 2_000;
const READERS_PER_INSTANCE = 2;
const HEARTBEAT_SECONDS = 5;
/** After the traffic: how long the readers and the webhook receiver get to see the last of it. */
const SETTLE_MS = 60_000;
const RSS_GROWTH_TARGET = 0.1;

/**
 * A soak: mixed traffic at a fixed open-loop rate for ten minutes against two `ap serve` processes
 * on one PostgreSQL schema, the agents on: authorization checks and lookups, brand and property
 * resolutions, feed reads, saves, and agent tasks over MCP (sales, signals, creative), some of
 * them async buys whose completion is pushed to a webhook receiver here. Meanwhile long-lived feed
 * streams on both instances read every event, and the bench rewrites publishers' adagents.json as
 * the crawler would. It prints what was served, the errors, p99 per operation, each instance's RSS
 * (from /proc, after the first minute and at the end), whether every feed event and every webhook
 * arrived, and the verdict: no 5xx and at most 10% RSS growth after the first minute. Reproducible:
 * the requests come from a seeded sequence. Everything runs on loopback, and everything it started
 * (the processes, the schema) is gone when it returns, whether it finished or failed.
 */
export async function soakBench(flags: BenchFlags = {}): Promise<void> {
  const seconds = flags.duration ?? Number(process.env.SOAK_SECONDS ?? DEFAULT_SECONDS);
  const rate = flags.rate ?? Number(process.env.SOAK_RATE ?? DEFAULT_RATE);
  const seed = flags.seed ?? Number(process.env.SOAK_SEED ?? DEFAULT_SEED);
  // The first minute is warm-up (JIT, pools, caches filling); a short development run takes its first tenth.
  const baselineAt = Math.min(60, seconds / 10);
  const baselineLabel = baselineAt === 60 ? 'the first minute' : `the first ${fmt(baselineAt, 1)} s`;
  console.log(
    `soak: ${seconds} s of mixed traffic at ${rate} req/s open loop (seed ${seed}) over 2 ap serve instances on one PostgreSQL schema, agents on; ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at start`,
  );

  // Ctrl-C reaches the children too (one process group): the load child dies, the servers stop,
  // and the failure runs the cleanup below instead of leaving the schema behind.
  const interrupted = new AbortController();
  const onInterrupt = () => interrupted.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  const shared = await openSharedSchema();
  const receiver = new TestReceiver();
  let images: { host: string; close(): void } | undefined;
  const readers: FeedReader[] = [];
  try {
    images = await startBannerHost();
    await receiver.listen();
    const setupStarted = performance.now();
    const world = await seedWorld(shared.db);
    const seededIn = (performance.now() - setupStarted) / 1000;
    interrupted.signal.throwIfAborted();

    const hooksHost = new URL(receiver.url).host;
    const env = {
      AGENTS: 'true',
      AP_ADMIN_KEY: adminKey,
      // The agents' SSRF-safe client may reach the bench's webhook receiver and image host, nothing else local.
      AP_FETCH_ALLOW: `${hooksHost},${images.host}`,
      // A soak of the server, not of the save limits (60 an hour per key by default).
      RATE_LIMIT_SAVES_PER_HOUR: '1000000',
      RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '1000000',
      RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000000',
      FEED_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
    };
    const servers = await Promise.all([shared.serve(env), shared.serve(env)]);
    await Promise.all(servers.map((server) => untilReady(server)));
    console.log(
      `soak setup: world seeded in ${fmt(seededIn, 1)} s (300 publishers, 20 operators, ${LIVE_PUBLISHERS} live publishers, ${2 * SAVED_DOMAINS} proven domains), both instances ready ${fmt((performance.now() - setupStarted) / 1000 - seededIn, 1)} s later`,
    );
    const errorLogs = servers.map(watchErrorLogs);
    interrupted.signal.throwIfAborted();
    const instances = servers.map((server) => server.url);
    receiver.trust(instances[0]!);

    const context: SoakContext = {
      apiKey: world.apiKey,
      agentCredential: publicTestCredential,
      accountId: await syncAccount(instances[0]!),
      hooksUrl: receiver.url,
      imagesUrl: `http://${images.host}`,
      feedCursor: '',
      brandDomains: world.brandDomains,
      propertyDomains: world.propertyDomains,
    };
    await createSavedEntries(instances, context);
    // From here on every event must reach every reader: the checks' saves already count.
    context.feedCursor = await feedHead(shared.db);
    const expectedTasks = new Set(await checkEachOperation(instances, context, seed));
    for (const base of instances)
      for (let r = 0; r < READERS_PER_INSTANCE; r++)
        readers.push(new FeedReader(base, context.feedCursor, asAdmin, 3 * HEARTBEAT_SECONDS * 1000));
    interrupted.signal.throwIfAborted();

    // The traffic, and beside it the crawler-style writes and the RSS samples, until the traffic ends.
    const pids = servers.map((server) => server.process.pid!);
    const started = performance.now();
    const cpuAtStart = pids.map(cpuSecondsOf);
    const traffic = inChild({ kind: 'soak', instances, rate, seconds, connections: 16, seed, context });
    let finished = false;
    void traffic.finally(() => (finished = true)).catch(() => {});
    const samples: Array<{ at: number; rss: number[] }> = [];
    let baseline: { at: number; rss: number[] } | undefined;
    let graphWrites = 0;
    let nextWrite = GRAPH_WRITE_EVERY_MS;
    while (!finished) {
      // Ctrl-C ended the load child too; a SIGINT sent to this process alone leaves it to stop at its own end.
      interrupted.signal.throwIfAborted();
      await Promise.race([traffic.catch(() => {}), sleep(1000)]);
      const at = (performance.now() - started) / 1000;
      samples.push({ at, rss: pids.map(rssBytesOf) });
      if (!baseline && at >= baselineAt) baseline = samples.at(-1)!;
      for (const server of servers) server.logs.length = 0; // read by watchErrorLogs already; kept, they would fill the bench's memory
      while (!finished && at * 1000 >= nextWrite) {
        const k = graphWrites % LIVE_PUBLISHERS;
        await publishAdagents(
          shared.db,
          livePublisher(k),
          liveAdagents(k, Math.floor(graphWrites / LIVE_PUBLISHERS) % 2 === 0),
        );
        graphWrites++;
        nextWrite += GRAPH_WRITE_EVERY_MS;
      }
    }
    interrupted.signal.throwIfAborted();
    const result = await traffic;
    const elapsed = (performance.now() - started) / 1000;
    const end = { rss: pids.map(rssBytesOf), cpu: pids.map(cpuSecondsOf) };
    baseline ??= { at: elapsed, rss: end.rss };
    for (const task of result.submittedTaskIds) expectedTasks.add(task);

    // Every event committed, and every async task's webhook, should now reach its reader.
    const head = await feedHead(shared.db);
    await Promise.all(readers.map((reader) => reader.reached(head, SETTLE_MS)));
    const feed = (await readToEnd(instances[0]!, { cursor: context.feedCursor })).events.map(
      (e) => e['event_id'] as string,
    );
    await within(
      SETTLE_MS,
      receiver.until(() =>
        [...expectedTasks].every((task) => receiver.events.some((e) => e.task_id === task && e.status !== 'submitted')),
      ),
    );

    report({
      result,
      seconds,
      rate,
      elapsed,
      instances: pids,
      samples,
      baseline,
      baselineLabel,
      end,
      cpuAtStart,
      readers,
      feed,
      receiver,
      expectedTasks,
      graphWrites,
      errorLogs,
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    await Promise.all(readers.map((reader) => reader.stop()));
    await shared.close();
    await receiver.close();
    images?.close();
  }
}

interface World {
  apiKey: string;
  brandDomains: string[];
  propertyDomains: string[];
}

/**
 * The lookups bench's world of 300 publishers and 20 operators (through the crawler's
 * projections, so both instances build their index from the feed), the live publishers the bench
 * rewrites, and an organization with an API key that proved control of the domains it saves.
 */
async function seedWorld(db: Database): Promise<World> {
  await migrate(db, await loadMigrations());
  await buildLookupWorld(db);
  await buildLiveWorld(db, LIVE_PUBLISHERS);
  await seedOrganization(db, { slug: 'soak' });
  const apiKey = await createApiKeyFor(db, 'soak');
  const brandDomains = Array.from({ length: SAVED_DOMAINS }, (_, k) => `soak-brand-${k}.example`);
  const propertyDomains = Array.from({ length: SAVED_DOMAINS }, (_, k) => `soak-publisher-${k}.example`);
  for (const domain of [...brandDomains, ...propertyDomains]) await proveOwnership(db, 'soak', domain);
  return { apiKey, brandDomains, propertyDomains };
}

/** A buyer's account on the sales agent, made the way a buyer would (sync_accounts); both instances see it. */
async function syncAccount(base: string): Promise<string> {
  const call = mcpCall(publicTestCredential, 'sync_accounts', {
    idempotency_key: crypto.randomUUID(),
    accounts: [{ brand: { domain: 'soak-buyer.example' }, operator: 'soak-buyer.example', billing: 'operator' }],
  });
  const synced = await toolResult(`${base}/sales/mcp`, call);
  if (synced.isError) throw new Error(`sync_accounts failed: ${synced.text}`);
  return (JSON.parse(synced.text) as { accounts: Array<{ account_id: string }> }).accounts[0]!.account_id;
}

/** Each saved domain's brand and property, created once (201) through alternating instances, so resolutions of them answer from the start. */
async function createSavedEntries(instances: string[], context: SoakContext): Promise<void> {
  const saves = [
    ...context.brandDomains.map(
      (domain) => ['/api/brands/save', { domain, brand_name: `Soak brand ${domain}` }] as const,
    ),
    ...context.propertyDomains.map(
      (domain) => ['/api/properties/save', { publisher_domain: domain, authorized_agents: [] }] as const,
    ),
  ];
  for (const [i, [path, body]] of saves.entries()) {
    const res = await fetch(`${instances[i % instances.length]}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${context.apiKey}` },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`creating ${JSON.stringify(body)}: HTTP ${res.status} ${await res.text()}`);
  }
}

/**
 * One request of each operation on each instance before the clock starts, checked by hand: an
 * answer that is not 2xx, or a tool error (HTTP 200 too), would otherwise only show as errors in
 * the report. Its choices come from a sequence of their own, so the run's stays as seeded.
 * Returns the tasks the async calls were accepted as.
 */
async function checkEachOperation(instances: string[], context: SoakContext, seed: number): Promise<string[]> {
  // Its own stem too: the run's idempotency keys never meet these.
  const pick = seededPicker(seededRandom(seed + 1), seed + 1);
  const tasks: string[] = [];
  for (const op of soakOperations) {
    for (const base of instances) {
      pick.sequence++;
      const request = op.build(pick, base, context);
      const res = await fetch(`${base}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const text = await res.text();
      if (res.status < 200 || res.status > 299)
        throw new Error(`${op.name} on ${base}: HTTP ${res.status} ${text.slice(0, 500)}`);
      if (!op.mcp) continue;
      const outcome = mcpOutcome(text);
      if (outcome.agentError) throw new Error(`${op.name} on ${base}: ${outcome.agentError} ${text.slice(0, 500)}`);
      if (outcome.submittedTaskId) tasks.push(outcome.submittedTaskId);
    }
  }
  return tasks;
}

async function feedHead(db: Database): Promise<string> {
  const [row] = await db.query<{ event_id: string }>(
    'select event_id from registry_events order by event_id desc limit 1',
  );
  if (!row) throw new Error('the feed is empty after seeding');
  return row.event_id;
}

interface LogWatch {
  warnings: number;
  errors: number;
  /** The first few lines at warn or above, cut short. */
  first: string[];
}

/** Counts an instance's log lines at warn (40) and at error or fatal (50, 60), keeping the first few. */
function watchErrorLogs(server: ServingAp): LogWatch {
  const seen: LogWatch = { warnings: 0, errors: 0, first: [] };
  server.onLine((line) => {
    const level = /"level":(40|50|60)\b/.exec(line)?.[1];
    if (!level) return;
    if (level === '40') seen.warnings++;
    else seen.errors++;
    if (seen.first.length < 3) seen.first.push(line.slice(0, 400));
  });
  return seen;
}

/** Waits for `work`, at most `ms`. */
async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

interface Report {
  result: SoakResult;
  seconds: number;
  rate: number;
  elapsed: number;
  instances: number[];
  samples: Array<{ at: number; rss: number[] }>;
  baseline: { at: number; rss: number[] };
  baselineLabel: string;
  end: { rss: number[]; cpu: number[] };
  cpuAtStart: number[];
  readers: FeedReader[];
  feed: string[];
  receiver: TestReceiver;
  expectedTasks: Set<string>;
  graphWrites: number;
  errorLogs: LogWatch[];
}

function report(r: Report): void {
  const { result } = r;
  const ops = result.operations;
  const total = ops.reduce((sum, op) => sum + op.count, 0);
  const served = total - ops.reduce((sum, op) => sum + op.transportErrors, 0);
  console.log(
    `soak requests: ${n(served)} served of ${n(total)} sent in ${fmt(r.elapsed, 0)} s (${fmt(result.sentPerSecond, 1)} req/s sent, client lag p99 ${fmt(result.lagP99Ms, 1)} ms), ${result.perInstance.map((count, i) => `instance ${i + 1} ${n(count)}`).join(', ')}: ${ops.map((op) => `${op.name} ${n(op.count)}`).join(', ')}`,
  );

  const byStatus = new Map<string, string[]>();
  for (const op of ops)
    for (const [status, count] of Object.entries(op.statuses))
      if (!status.startsWith('2')) byStatus.set(status, [...(byStatus.get(status) ?? []), `${op.name} x${count}`]);
  const statusText = [...byStatus]
    .sort()
    .map(
      ([status, where]) =>
        `${status} x${where.reduce((s, w) => s + Number(w.split(' x').at(-1)), 0)} (${where.join(', ')})`,
    );
  const transport = ops.filter((op) => op.transportErrors > 0).map((op) => `${op.name} x${op.transportErrors}`);
  const agentErrors = ops.flatMap((op) =>
    Object.entries(op.agentErrors).map(([code, count]) => `${code} x${count} (${op.name})`),
  );
  const answered2xx = ops.reduce(
    (sum, op) =>
      sum +
      Object.entries(op.statuses)
        .filter(([s]) => s.startsWith('2'))
        .reduce((a, [, c]) => a + c, 0),
    0,
  );
  console.log(
    `soak errors by status: ${statusText.length ? statusText.join(', ') : 'none'} (${n(answered2xx)} of ${n(total)} answered 2xx); no answer: ${transport.length ? transport.join(', ') : 'none'}; agent error codes: ${agentErrors.length ? agentErrors.join(', ') : 'none'}`,
  );
  console.log(
    `soak p99 per operation (ms, from when each request fell due): ${ops.map((op) => `${op.name} ${fmt(op.p99Ms, 1)}`).join(', ')}`,
  );
  console.log(
    `soak p50 per operation (ms): ${ops.map((op) => `${op.name} ${fmt(op.p50Ms, 1)}`).join(', ')}; max of all ${fmt(Math.max(...ops.map((op) => op.maxMs)), 0)} ms`,
  );
  console.log(
    `soak p99 of all operations at each tenth of the run (ms): ${result.p99ByTenth.map((p) => fmt(p, 1)).join(' ')}`,
  );

  const growth = r.instances.map((_, i) => r.end.rss[i]! / r.baseline.rss[i]! - 1);
  for (const [i, pid] of r.instances.entries()) {
    const cpu = (r.end.cpu[i]! - r.cpuAtStart[i]!) / r.elapsed;
    console.log(
      `soak RSS instance ${i + 1} (pid ${pid}, /proc VmRSS): ${mib(r.baseline.rss[i]!)} MiB after ${r.baselineLabel} (sampled at ${fmt(r.baseline.at, 1)} s), ${mib(r.end.rss[i]!)} MiB at end: ${signed(growth[i]! * 100)}%; CPU ${fmt(cpu * 100, 0)}% of a core over the run`,
    );
  }
  const tenths = Array.from(
    { length: 10 },
    (_, k) => r.samples.find((s) => s.at >= ((k + 1) * r.seconds) / 10) ?? r.samples.at(-1),
  ).filter((s) => s !== undefined);
  console.log(
    `soak RSS at each tenth of the run (MiB): ${r.instances.map((_, i) => `instance ${i + 1} ${tenths.map((s) => mib(s.rss[i]!)).join(' ')}`).join('; ')}`,
  );

  const feedIds = new Set(r.feed);
  const readerLines = r.readers.map((reader) => {
    const seen = new Set(reader.eventIds);
    const missing = r.feed.filter((id) => !seen.has(id)).length;
    const extra = [...seen].filter((id) => !feedIds.has(id)).length;
    const reconnects = `${reader.reconnects}${reader.refusedWith === undefined ? '' : ` (refused with HTTP ${reader.refusedWith})`}`;
    return { seen: seen.size, missing, duplicates: reader.eventIds.length - seen.size, extra, reconnects };
  });
  const complete = readerLines.every((l) => l.missing === 0 && l.duplicates === 0 && l.extra === 0);
  console.log(
    `soak feed streams: ${r.readers.length} readers (${r.readers.length / r.instances.length} per instance) for the whole run, ${n(r.feed.length)} events in the feed since the run began (saves on both instances, ${r.graphWrites} crawler-style graph writes); seen ${readerLines.map((l) => `${n(l.seen)}${l.missing || l.duplicates || l.extra ? ` (missing ${l.missing}, duplicates ${l.duplicates}, not in the feed ${l.extra})` : ''}`).join(', ')}; reconnects ${readerLines.map((l) => l.reconnects).join(', ')}: ${complete ? 'complete' : 'INCOMPLETE'}`,
  );

  const hooks = r.receiver.events.filter((e) => e.task_id !== undefined && r.expectedTasks.has(e.task_id));
  const statuses = new Map<string, number>();
  for (const hook of hooks) statuses.set(String(hook.status), (statuses.get(String(hook.status)) ?? 0) + 1);
  const heard = new Set(hooks.map((e) => e.task_id));
  const rejected = r.receiver.statuses.filter((s) => s < 200 || s > 299).length;
  console.log(
    `soak webhooks: ${r.expectedTasks.size} async buys submitted (with the checks before the run), ${hooks.length} signed webhooks verified (${[...statuses].map(([s, c]) => `${c} ${s}`).join(', ') || 'none'}), ${r.expectedTasks.size - heard.size} tasks never heard of, ${rejected} deliveries refused by the receiver: ${heard.size === r.expectedTasks.size && rejected === 0 ? 'complete' : 'INCOMPLETE'}`,
  );
  console.log(
    `soak server log lines at warn / error: ${r.errorLogs.map((e, i) => `instance ${i + 1} ${e.warnings} / ${e.errors}`).join(', ')}${r.errorLogs
      .flatMap((e) => e.first)
      .map((line) => `\n  ${line}`)
      .join('')}`,
  );

  const fiveXx = ops.reduce(
    (sum, op: OperationResult) =>
      sum +
      Object.entries(op.statuses)
        .filter(([s]) => s.startsWith('5'))
        .reduce((a, [, c]) => a + c, 0),
    0,
  );
  const met = fiveXx === 0 && growth.every((g) => g <= RSS_GROWTH_TARGET);
  console.log(
    `soak target: 0 x 5xx, RSS growth <= ${RSS_GROWTH_TARGET * 100}% after ${r.baselineLabel}: ${met ? 'met' : 'NOT met'} (${fiveXx} x 5xx; RSS ${growth.map((g) => `${signed(g * 100)}%`).join(', ')}; load average ${os.loadavg()[0]!.toFixed(1)} at end)`,
  );
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const fmt = (x: number, digits: number) => x.toFixed(digits);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
