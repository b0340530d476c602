import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { quoteIdent } from '../src/db/identifiers.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { AllowList, type HostMapping } from '../src/net/allow-list.ts';
import { staticResolver } from '../src/net/resolver.ts';
import { SafeFetch } from '../src/net/safe-fetch.ts';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../src/protocol/schemas.ts';
import type { CrawlerConfig } from '../src/config.ts';
import { Crawler } from '../src/registry/crawler/crawler.ts';
import { postgresUrl } from '../test/support/engines.ts';

const DOMAINS = Number(process.env.BENCH_CRAWL_DOMAINS ?? 10_000);
/** The re-crawl and the fetch-only baseline take the first SAMPLE of the crawled domains, to keep the run short. */
const SAMPLE = Math.min(DOMAINS, Number(process.env.BENCH_CRAWL_SAMPLE ?? 2_500));
const CONCURRENCY = Number(process.env.BENCH_CRAWL_CONCURRENCY ?? 32);
/** Sales agents shared across publishers (publisher i uses agent i % AGENTS), plus one network agent for all. */
const AGENTS = 10;
/** Every tenth publisher also serves a brand.json; the others answer 404. */
const BRAND_EVERY = 10;
const SAMPLE_MS = 50;
// The test certificate covers *.ap.test one label deep, so the names are bench-<i>.ap.test.
const domainOf = (i: number) => `bench-${i}.ap.test`;
const fixtures = new URL('../test/support/fixtures/', import.meta.url);

/**
 * The crawler (`Crawler.crawl`) on 10,000 publishers served over HTTPS by one loopback server in
 * its own process, `BENCH_CRAWL_CONCURRENCY` (32) crawls in flight, measured side by side in one run:
 * 1. the first crawl of all 10,000 (everything new, feed events written) against a re-crawl of
 *    unchanged files (the server tags each file with an ETag, so the crawler asks conditionally and
 *    a 304 skips the download, the parse and the diff);
 * 2. both against the network part alone: the same files fetched with an identically configured
 *    SafeFetch and JSON-parsed but not applied, so the ratio shows what validation, projection and
 *    the database cost on top.
 * The re-crawl and the baseline take the first `BENCH_CRAWL_SAMPLE` (2,500) domains; throughput
 * is per domain, so the ratios stand. Embedded PGlite always; PostgreSQL too when reachable (a
 * fresh schema, dropped after). Every phase opens a new fetch client: each domain is a new TLS
 * connection in every phase, as it is for a crawler of real publishers. `node bench/crawl.bench.ts`
 * runs this bench alone.
 */
export async function crawlBench(): Promise<void> {
  for (const [kind, document] of [
    [ADAGENTS_SCHEMA_ID, adagentsFile(1)],
    [BRAND_SCHEMA_ID, brandFile(0)],
  ] as const) {
    const validation = validateSchema(kind, document);
    if (!validation.valid)
      throw new Error(`the bench's ${kind} does not validate: ${JSON.stringify(validation.errors[0])}`);
  }
  const server = await startPublishers();
  const names = new Map<string, HostMapping>(
    Array.from({ length: DOMAINS }, (_, i) => [domainOf(i), { address: '127.0.0.1', port: server.port }]),
  );
  const ca = readFileSync(new URL('publishers.crt', fixtures));
  // Every name is mapped to the loopback server; the resolver knows no name, so nothing leaves loopback.
  const newFetcher = () => new SafeFetch({ resolver: staticResolver({}), allow: new AllowList([], names), ca });
  const config: CrawlerConfig = {
    ...loadConfig({}, {}).crawler,
    hostDelayMs: 0,
    concurrency: CONCURRENCY,
    worker: false,
  };
  const run = (count: number, prepare: (fetcher: SafeFetch) => (i: number) => Promise<Outcome>) =>
    phase(count, newFetcher, prepare, server.cpuMs);
  const rows: Record<string, Row> = {};
  const ratios: string[] = [];
  const notes: string[] = [];
  const started = performance.now();
  try {
    await run(Math.min(SAMPLE, 200), fetchAndParse); // warm-up
    const parsed = await run(SAMPLE, fetchAndParse);
    rows['fetch + JSON.parse only'] = row(parsed);

    const engines: Array<[string, () => Promise<Engine | undefined>]> = [
      ['PGlite', openPgliteEngine],
      ['PostgreSQL', openPostgresEngine],
    ];
    for (const [name, open] of engines) {
      const maxRssBefore = maxRssMb();
      const engine = await open();
      if (!engine) continue;
      try {
        await migrate(engine.db, await loadMigrations());
        notes.push(
          `crawl: opening ${name} and migrating took this process's maxRSS from ${maxRssBefore} to ${maxRssMb()} MB`,
        );
        const crawlOnce = (fetcher: SafeFetch) => {
          const crawler = new Crawler({ db: engine.db, fetcher, clock: systemClock, config });
          return async (i: number): Promise<Outcome> => {
            const report = await crawler.crawl(domainOf(i));
            return { adagents: report.adagents === 'found', brand: report.brand === 'found' };
          };
        };
        const first = await run(DOMAINS, crawlOnce);
        const afterFirst = await countEvents(engine.db);
        const again = await run(SAMPLE, crawlOnce);
        const afterAgain = await countEvents(engine.db);
        rows[`${name}: first crawl (all new)`] = row(first, afterFirst);
        rows[`${name}: re-crawl (unchanged)`] = row(again, afterAgain - afterFirst);
        ratios.push(
          `crawl throughput ratio re-crawl / first crawl on ${name}: ${(again.perSecond / first.perSecond).toFixed(2)}`,
          `crawl throughput ratio first crawl / fetch+parse on ${name}: ${(first.perSecond / parsed.perSecond).toFixed(2)}`,
          `crawl throughput ratio re-crawl / fetch+parse on ${name}: ${(again.perSecond / parsed.perSecond).toFixed(2)}`,
        );
      } finally {
        await engine.close();
      }
    }
  } finally {
    await server.stop();
    console.log(
      `crawl: ${DOMAINS} publishers crawled, the re-crawl and the fetch-only baseline on the first ${SAMPLE}; ${CONCURRENCY} in flight, hostDelayMs 0; ` +
        `one loopback HTTPS server in its own process; ${availableParallelism()} CPUs; CPU % is per process (100 = one core); ${Math.round((performance.now() - started) / 1000)} s in all`,
    );
    console.table(rows);
    for (const line of ratios) console.log(line);
    for (const line of notes) console.log(line);
    console.log(`crawl peak RSS of this process over the whole run (resourceUsage maxRSS): ${maxRssMb()} MB`);
  }
}

const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

interface Measured {
  domains: number;
  perSecond: number;
  /** This process's CPU time over wall time, in percent of one core. */
  cpuPercent: number;
  cpuMsPerDomain: number;
  serverCpuPercent: number;
  rssStartMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  /** Domains whose adagents.json did not come back valid (`report.adagents !== 'found'`): should be 0. */
  notFound: number;
  /** Domains whose brand.json did: every BRAND_EVERY-th. */
  brands: number;
  /** Domains whose crawl threw. */
  errors: number;
}

type Row = Record<string, number | string>;

/** Whether a domain's adagents.json and brand.json came back valid. */
interface Outcome {
  adagents: boolean;
  brand: boolean;
}

/**
 * Runs `prepare(fetcher)` on domains 0 to count-1, CONCURRENCY at a time, with a fresh fetch
 * client; samples this process's memory every 50 ms.
 */
async function phase(
  count: number,
  newFetcher: () => SafeFetch,
  prepare: (fetcher: SafeFetch) => (i: number) => Promise<Outcome>,
  serverCpuMs: () => Promise<number>,
): Promise<Measured> {
  const fetcher = newFetcher();
  const one = prepare(fetcher);
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, SAMPLE_MS);
  let notFound = 0;
  let brands = 0;
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const serverCpu = await serverCpuMs();
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const i = next++;
          try {
            const outcome = await one(i);
            if (!outcome.adagents) notFound++;
            if (outcome.brand) brands++;
          } catch (error) {
            errors++;
            firstError ??= `${domainOf(i)}: ${(error as Error).message}`;
          }
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const serverUsed = (await serverCpuMs()) - serverCpu;
  const end = process.memoryUsage();
  await fetcher.close();
  if (firstError) console.error(`crawl bench: ${errors} domains threw, the first ${firstError}`);
  const cpuMs = (used.user + used.system) / 1000;
  return {
    domains: count,
    perSecond: count / seconds,
    cpuPercent: (cpuMs / 1000 / seconds) * 100,
    cpuMsPerDomain: cpuMs / count,
    serverCpuPercent: (serverUsed / 1000 / seconds) * 100,
    rssStartMb: mb(start.rss),
    peakRssMb: mb(Math.max(peakRss, end.rss)),
    peakHeapMb: mb(Math.max(peakHeap, end.heapUsed)),
    notFound,
    brands,
    errors,
  };
}

function row(m: Measured, events?: number): Row {
  return {
    domains: m.domains,
    'domains/s': Math.round(m.perSecond),
    'CPU %': Math.round(m.cpuPercent),
    'CPU ms/domain': Math.round(m.cpuMsPerDomain * 10) / 10,
    'server CPU %': Math.round(m.serverCpuPercent),
    'RSS before MB': m.rssStartMb,
    'peak RSS MB': m.peakRssMb,
    'peak heap MB': m.peakHeapMb,
    'events written': events ?? '-',
    'adagents not found': m.notFound,
    'brand.json found': m.brands,
    errors: m.errors,
  };
}

/** The baseline: both files fetched one after the other (as the crawler's per-host pacer does) and parsed. */
function fetchAndParse(fetcher: SafeFetch): (i: number) => Promise<Outcome> {
  const headers = { accept: 'application/json' };
  return async (i) => {
    const adagents = await fetcher.fetch(`https://${domainOf(i)}/.well-known/adagents.json`, { headers });
    const found = adagents.status === 200 && typeof adagents.json() === 'object';
    const brand = await fetcher.fetch(`https://${domainOf(i)}/.well-known/brand.json`, { headers });
    return { adagents: found, brand: brand.status === 200 && typeof brand.json() === 'object' };
  };
}

async function countEvents(db: Database): Promise<number> {
  const [row] = await db.query<{ count: number | string }>('select count(*) as count from registry_events');
  return Number(row!.count);
}

interface Engine {
  db: Database;
  close(): Promise<void>;
}

async function openPgliteEngine(): Promise<Engine> {
  const db = await openPglite({ dataDir: 'memory://' });
  return { db, close: () => db.close() };
}

/** A fresh schema on the local PostgreSQL, with the production pool size; undefined when none is reachable. */
async function openPostgresEngine(): Promise<Engine | undefined> {
  const admin = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`crawl: PostgreSQL is not reachable at ${postgresUrl} (${(error as Error).message}); PGlite only`);
    return undefined;
  }
  const schema = `bench_crawl_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin.query(`create schema ${quoteIdent(schema)}`);
  const db = openPostgres({ url: postgresUrl, schema, poolMax: loadConfig({}, {}).poolMax });
  return {
    db,
    async close() {
      await db.close();
      await admin.query(`drop schema ${quoteIdent(schema)} cascade`);
      await admin.end();
    },
  };
}

/** Publisher i's adagents.json: two properties, one grant by property ids and one by tag, shared agents. */
function adagentsFile(i: number): Record<string, unknown> {
  const domain = domainOf(i);
  return {
    $schema: '/schemas/3.0.6/adagents.json',
    contact: { name: 'Ad Ops', email: `ops@${domain}` },
    properties: [
      {
        property_id: 'main',
        property_type: 'website',
        name: `Bench ${i}`,
        identifiers: [{ type: 'domain', value: domain }],
        tags: ['news'],
      },
      {
        property_id: 'shop',
        property_type: 'website',
        name: `Bench ${i} Shop`,
        identifiers: [{ type: 'domain', value: `shop.${domain}` }],
        tags: ['shopping'],
      },
    ],
    authorized_agents: [
      {
        url: `https://sales-${i % AGENTS}.bench.example/ap`,
        authorized_for: 'Display and video',
        authorization_type: 'property_ids',
        property_ids: ['main', 'shop'],
        delegation_type: 'direct',
      },
      {
        url: 'https://network.bench.example/ap',
        authorized_for: 'Shopping inventory',
        authorization_type: 'property_tags',
        property_tags: ['shopping'],
        delegation_type: 'ad_network',
      },
    ],
    last_updated: '2026-11-01T00:00:00Z',
  };
}

function brandFile(i: number): Record<string, unknown> {
  const domain = domainOf(i);
  return {
    house: { domain, name: `Bench ${i} Holdings`, architecture: 'branded_house' },
    brands: [
      {
        id: 'main',
        names: [{ en: `Bench ${i}` }],
        keller_type: 'master',
        url: `https://${domain}`,
        properties: [{ type: 'website', identifier: domain }],
      },
    ],
  };
}

interface Publishers {
  port: number;
  /** CPU time the server process has used so far. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/** The publishers' server, in a child process (this file with --serve-publishers), so it takes no CPU time or memory from the crawler's. */
async function startPublishers(): Promise<Publishers> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve-publishers'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const died = exited.then(() => Promise.reject(new Error('the publishers server exited')));
  died.catch(() => {});
  const message = async () => {
    const [value] = (await Promise.race([once(child, 'message'), died])) as [number];
    return value;
  };
  const port = await message();
  return {
    port,
    async cpuMs() {
      const answer = message();
      child.send('cpu');
      return answer;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function servePublishers(): void {
  const key = readFileSync(new URL('publishers.key', fixtures));
  const cert = readFileSync(new URL('publishers.crt', fixtures));
  const server = createServer({ key, cert }, (req, res) => {
    const match = /^bench-(\d+)\.ap\.test(?::\d+)?$/.exec(req.headers.host ?? '');
    const i = match ? Number(match[1]) : -1;
    const body =
      i < 0
        ? undefined
        : req.url === '/.well-known/adagents.json'
          ? adagentsFile(i)
          : req.url === '/.well-known/brand.json' && i % BRAND_EVERY === 0
            ? brandFile(i)
            : undefined;
    // Each file's version, as a web server or CDN tags it; asked for again with it, it answers 304.
    const etag = `"${req.url === '/.well-known/brand.json' ? 'b' : 'a'}-${i}-1"`;
    if (!body) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else if (req.headers['if-none-match'] === etag) res.writeHead(304, { etag }).end();
    else res.writeHead(200, { 'content-type': 'application/json', etag }).end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
  process.on('message', () => {
    const cpu = process.cpuUsage();
    process.send!((cpu.user + cpu.system) / 1000);
  });
  process.on('SIGTERM', () => process.exit(0));
  process.on('disconnect', () => process.exit(0));
}

if (import.meta.main) {
  if (process.argv[2] === '--serve-publishers') servePublishers();
  else await crawlBench();
}
