import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueue } from '../../../src/registry/crawler/sql.ts';
import { startFleet, type Fleet } from '../../support/publisher-fleet.ts';
import { openSharedSchema, type SharedSchema } from '../../support/shared-schema.ts';
import { untilLogged, type ServingAp } from '../../support/cli.ts';
import { adagents } from './documents.ts';

const ADAGENTS = '/.well-known/adagents.json';

interface LogLine {
  msg: string;
  time: number;
  crawl?: { domain: string };
  claimed?: number;
}
const parsed = (worker: ServingAp): LogLine[] =>
  worker.logs.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as LogLine] : []));

// Two `ap serve` processes on one PostgreSQL share the crawl queue: every domain is crawled once
// per cycle, by one of them, and both take part.
describe('[postgres] two crawl workers sharing one queue', () => {
  let fleet: Fleet;
  let shared: SharedSchema;
  let workers: ServingAp[];

  before(async () => {
    fleet = await startFleet(Array.from({ length: 60 }, (_, i) => `queue-${i}`));
    // The publishers answer once both workers have claimed domains, so neither can drain the queue
    // alone before the other's first poll, however the machine schedules them.
    let bothClaimed!: () => void;
    const heldUntil = new Promise<void>((resolve) => (bothClaimed = resolve));
    for (const domain of fleet.domains) fleet.serve(domain, ADAGENTS, { body: adagents(domain), heldUntil });
    shared = await openSharedSchema();
    // Debug shows every claim pass, the empty ones included.
    const env = {
      ...fleet.processEnv(),
      LOG_LEVEL: 'debug',
      CRAWL_WORKER: 'true',
      CRAWL_POLL_SECONDS: '1',
      CRAWL_CONCURRENCY: '4',
      CRAWL_HOST_DELAY_MS: '0',
      CRAWL_INTERVAL_SECONDS: '3600',
    };
    workers = [await shared.serve(env), await shared.serve(env)];
    void untilLogged(workers, () =>
      workers.every((w) => parsed(w).some((l) => l.msg === 'crawl worker claimed' && l.claimed! > 0)),
    ).then(bothClaimed);
  });
  after(async () => {
    await shared.close();
    await fleet.close();
  });

  it(
    'crawls each queued domain exactly once in the cycle, split between the workers',
    { timeout: 60_000 },
    async () => {
      const crawls = () => workers.map((w) => parsed(w).filter((l) => l.msg === 'crawled'));
      await enqueue(shared.db, fleet.domains, new Date());
      // Each worker logs a crawl once it has been written, so the last line means the queue is done.
      await untilLogged(workers, () => crawls().flat().length >= fleet.domains.length);
      const doneAt = Math.max(
        ...crawls()
          .flat()
          .map((l) => l.time),
      );
      // Then a claim pass by each that finds nothing due again.
      await untilLogged(workers, () =>
        workers.every((w) =>
          parsed(w).some((l) => l.msg === 'crawl worker claimed' && l.claimed === 0 && l.time >= doneAt),
        ),
      );

      for (const domain of fleet.domains)
        assert.deepEqual(
          fleet.requests(domain).filter((p) => p === ADAGENTS),
          [ADAGENTS],
          domain,
        );
      const crawledBy = crawls().map((lines) => lines.map((l) => l.crawl!.domain));
      assert.deepEqual([...crawledBy[0]!, ...crawledBy[1]!].sort(), [...fleet.domains].sort());
      assert.ok(
        crawledBy[0]!.length > 0 && crawledBy[1]!.length > 0,
        `split ${crawledBy[0]!.length}/${crawledBy[1]!.length}`,
      );

      const [events] = await shared.db.query<{ n: number }>(
        `select count(*)::int as n from registry_events where event_type = 'publisher.adagents_discovered'`,
      );
      assert.equal(events!.n, fleet.domains.length);
      const due = await shared.db.query<{ next_crawl_at: Date }>('select next_crawl_at from crawl_targets');
      // Next cycle: about an hour away, spread by the jitter.
      for (const { next_crawl_at } of due) assert.ok(next_crawl_at.getTime() - Date.now() > 3000_000);
    },
  );
});
