import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPglite } from '../../src/db/pglite.ts';
import { runAp, serveAp } from '../support/cli.ts';
import { seedPgliteDirectory } from '../support/engines.ts';
import { startFleet, type Fleet } from '../support/publisher-fleet.ts';

const ADAGENTS = '/.well-known/adagents.json';

/** A publisher's valid file (schemas/3.0.6): its own site, sold by one agent. */
function adagents(domain: string, extraProperties: object[] = []): object {
  return {
    $schema: '/schemas/3.0.6/adagents.json',
    authorized_agents: [
      {
        url: 'https://sales.cli.example/ap',
        authorized_for: 'All display',
        authorization_type: 'property_ids',
        property_ids: ['site'],
      },
    ],
    properties: [
      { property_id: 'site', property_type: 'website', name: 'Site', identifiers: [{ type: 'domain', value: domain }] },
      ...extraProperties,
    ],
  };
}

interface Report {
  domain: string;
  adagents: string;
  brand: string;
  events: number;
  properties: number;
  agents: number;
  problem?: string;
  nextCrawlAt: string;
}

describe('ap crawl', () => {
  let fleet: Fleet;
  let dir: string;
  let dataDir: string;
  /** The environment of an `ap` that may fetch the fleet; without `fleet`, one that cannot. */
  const env = (fleetEnv = true) => ({
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    CRAWL_HOST_DELAY_MS: '0',
    CRAWL_WORKER: 'false',
    LOG_LEVEL: 'silent',
    ...(fleetEnv ? fleet.processEnv() : {}),
  });
  const [a, b, c] = ['cli-a.ap.test', 'cli-b.ap.test', 'cli-c.ap.test'];

  before(async () => {
    fleet = await startFleet(['cli-a', 'cli-b', 'cli-c']);
    fleet.serve(a, ADAGENTS, { body: adagents(a) });
    fleet.serve(b, ADAGENTS, { body: adagents(b) });
    dir = await mkdtemp(join(tmpdir(), 'ap-crawl-'));
    dataDir = join(dir, 'db');
    // A migrated cluster to start from: creating one (initdb, then the migrations) is what
    // ap serve's tests are about, and would cost the first crawl seconds.
    await seedPgliteDirectory(dataDir, 'migrated');
  });
  after(async () => {
    await fleet.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('crawls each domain, one line each, then a summary; exits 0 whatever the publishers answered', async () => {
    const result = await runAp(['crawl', a, b, c], env());
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 4, result.stdout);
    for (const domain of [a, b])
      assert.match(result.stdout, new RegExp(`^${domain}  found  1 property, 1 agent, \\d+ events$`, 'm'));
    assert.ok(eventsOf(lines, a) > 0 && eventsOf(lines, b) > 0, result.stdout);
    assert.match(
      result.stdout,
      new RegExp(`^${c}  absent  https://${c}/\\.well-known/adagents\\.json answered HTTP 404$`, 'm'),
    );
    const total = eventsOf(lines, a) + eventsOf(lines, b);
    assert.equal(lines.at(-1), `Crawled 3 domains: 2 found, 1 absent, 0 invalid, 0 transient; ${total} feed events.`);
    assert.ok(fleet.requests(c).includes(ADAGENTS));

    // The database the process left behind holds what it said it wrote.
    const db = await openPglite({ dataDir });
    try {
      const [events] = await db.query<{ n: number }>('select count(*)::int as n from registry_events');
      assert.equal(events!.n, total);
      const targets = await db.query<{ domain: string; last_outcome: string; next_crawl_at: Date }>(
        'select domain, last_outcome, next_crawl_at from crawl_targets where domain = any($1) order by domain',
        [[a, b, c]],
      );
      assert.deepEqual(
        targets.map((t) => [t.domain, t.last_outcome]),
        [
          [a, 'found'],
          [b, 'found'],
          [c, 'absent'],
        ],
      );
      assert.ok(targets.every((t) => t.next_crawl_at.getTime() > Date.now()));
    } finally {
      await db.close();
    }
  });

  it('prints the reports as JSON with --json: nothing changed, so no events the second time', async () => {
    const result = await runAp(['crawl', a, b, c, '--json'], env());
    assert.equal(result.code, 0, result.stderr);
    const reports = JSON.parse(result.stdout) as Report[];
    assert.deepEqual(
      reports.map((r) => [r.domain, r.adagents, r.events, r.properties, r.agents]),
      [
        [a, 'found', 0, 1, 1],
        [b, 'found', 0, 1, 1],
        [c, 'absent', 0, 0, 0],
      ],
    );
    assert.match(reports[2]!.problem!, /answered HTTP 404/);
    assert.ok(Date.parse(reports[0]!.nextCrawlAt) > Date.now());
    assert.match(result.stderr, /Crawled 3 domains: 2 found, 1 absent, 0 invalid, 0 transient; 0 feed events\./);
  });

  it('reads domains from --file (comments, blanks and repeats ignored) together with the arguments', async () => {
    const file = join(dir, 'domains.txt');
    await writeFile(file, `# publishers to check\n\nHTTPS://CLI-B.ap.test/   # pasted\n${c}\n${b}\n`);
    const result = await runAp(['crawl', a, '--file', file, '--concurrency', '2'], env());
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.deepEqual(
      lines
        .slice(0, -1)
        .map((l) => l.split('  ')[0])
        .sort(),
      [a, b, c],
    );
    assert.equal(lines.at(-1), 'Crawled 3 domains: 2 found, 1 absent, 0 invalid, 0 transient; 0 feed events.');

    await writeFile(file, `${b}\nnot a domain\n`);
    const refused = await runAp(['crawl', '--file', file], env());
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /domains\.txt, line 2: Invalid domain "not a domain".*\(invalid_domain\)/);
  });

  it('refuses an invalid domain before crawling anything', async () => {
    const before = fleet.requests(a).length;
    for (const bad of ['https://cli-a.ap.test/path', '127.0.0.1', 'localhost']) {
      const result = await runAp(['crawl', a, bad], env());
      assert.equal(result.code, 1, bad);
      assert.match(result.stderr, /^ap: Invalid domain .*\(invalid_domain\)$/m, bad);
      assert.equal(result.stdout, '', bad);
    }
    assert.equal(fleet.requests(a).length, before, 'nothing was fetched');

    const none = await runAp(['crawl'], env());
    assert.equal(none.code, 1);
    assert.match(none.stderr, /name the domains to crawl/);
  });

  it('rejects a --concurrency that is not a positive whole number', async () => {
    const result = await runAp(['crawl', a, '--concurrency', '0'], env());
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /--concurrency/);
  });

  it('reports a domain whose crawl failed unexpectedly, crawls the others, and exits 1', async () => {
    // A stand-in for a server on the control socket, whose crawl of one domain breaks.
    const fakeDir = join(dir, 'fake');
    await mkdir(fakeDir);
    const socket = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const { command, args } = JSON.parse(body) as { command?: string; args?: { domain: string } };
      const reply = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (command !== 'crawl.domain') return reply(400, { error: 'invalid_request', message: 'Unknown command.' });
      if (args!.domain === b) return reply(500, { error: 'internal_error', message: 'the database went away' });
      reply(200, {
        result: {
          domain: args!.domain,
          adagents: 'found',
          brand: 'absent',
          events: 2,
          properties: 1,
          agents: 1,
          nextCrawlAt: '2030-01-01T00:00:00.000Z',
        },
      });
    });
    await new Promise<void>((resolve) => socket.listen(join(fakeDir, 'ap.sock'), resolve));
    try {
      const result = await runAp(['crawl', a, b, c], { ...env(), DATA_DIR: fakeDir });
      assert.equal(result.code, 1);
      assert.match(result.stdout, new RegExp(`^${b}  error  the database went away \\(internal_error\\)$`, 'm'));
      assert.match(result.stdout, new RegExp(`^${c}  found  1 property, 1 agent, 2 events$`, 'm'));
      assert.match(
        result.stdout,
        /^Crawled 3 domains: 2 found, 0 absent, 0 invalid, 0 transient, 1 error; 4 feed events\.$/m,
      );

      const json = await runAp(['crawl', a, b, '--json'], { ...env(), DATA_DIR: fakeDir });
      assert.equal(json.code, 1);
      const reports = JSON.parse(json.stdout) as Report[];
      assert.deepEqual(
        reports.map((r) => [r.domain, r.nextCrawlAt]),
        [[a, '2030-01-01T00:00:00.000Z']],
      );
      assert.match(json.stderr, new RegExp(`^${b}  error  the database went away`, 'm'));
    } finally {
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
  });

  it("crawls through a running ap serve's control socket, with the server's fetch client", async () => {
    const server = await serveAp(['--data-dir', dataDir], { ...env(), LOG_LEVEL: 'info' });
    try {
      // The file changed: one more property, hence new events.
      fleet.serve(b, ADAGENTS, {
        body: adagents(b, [
          {
            property_id: 'news',
            property_type: 'website',
            name: 'News',
            identifiers: [{ type: 'domain', value: `news.${b}` }],
          },
        ]),
      });
      const seen = fleet.requests(b).length;
      // This process could not reach the fleet itself (no allow list, no CA): the server crawls.
      const result = await runAp(['crawl', b, '--json'], env(false));
      assert.equal(result.code, 0, result.stderr);
      const [report] = JSON.parse(result.stdout) as Report[];
      assert.equal(report!.domain, b);
      assert.equal(report!.adagents, 'found');
      assert.equal(report!.properties, 2);
      assert.ok(report!.events > 0, 'the new property is in the feed');
      assert.ok(fleet.requests(b).length > seen);

      const text = await runAp(['crawl', b, c], env(false));
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, new RegExp(`^${b}  found  2 properties, 1 agent, 0 events$`, 'm'));
      assert.match(text.stdout, /^Crawled 2 domains: 1 found, 1 absent, 0 invalid, 0 transient; 0 feed events\.$/m);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});

function eventsOf(lines: string[], domain: string): number {
  const line = lines.find((l) => l.startsWith(`${domain}  `)) ?? '';
  return Number(/(\d+) events?$/.exec(line)?.[1] ?? NaN);
}
