import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { replayCommand } from '../support/fuzz/cli.ts';
import { formatReport } from '../support/fuzz/report.ts';
import { fuzz } from '../support/fuzz/run.ts';
import { startFuzzServer, type FuzzServer } from '../support/fuzz/server.ts';

/**
 * The fuzz suite's short run: every operation of the OpenAPI document and every tool of every
 * agent and of the registry's /mcp (over MCP, A2A and plain HTTP) gets hostile cases, anonymous,
 * as the admin and as the agents' test credential. FUZZ_SEED and FUZZ_BUDGET change the run; a
 * failure prints the seed and the case, and `npm run fuzz -- --seed S --case N` replays it.
 * The long run is `npm run fuzz -- --budget 20000`.
 */
const seed = Number(process.env['FUZZ_SEED'] ?? 20_251_127);
// One case per operation and tool unless told otherwise: the whole surface, within the suite's minute.
const budget = process.env['FUZZ_BUDGET'] === undefined ? undefined : Number(process.env['FUZZ_BUDGET']);

eachEngine('fuzz', (engine) => {
  let server: FuzzServer;
  before(async () => {
    server = await startFuzzServer(engine);
  });
  after(async () => {
    await server.close();
  });

  it(`answers ${budget === undefined ? 'a hostile case for every operation and tool' : `${budget} hostile cases`} with no 5xx, internal error, leak, write, SSRF or stall, each refusal in its catalogue's shape`, async () => {
    const report = await fuzz({
      base: server.url,
      db: server.db,
      credentials: server.credentials,
      bodyLimitBytes: server.bodyLimitBytes,
      seed,
      ...(budget !== undefined ? { budget } : {}),
    });
    const untouched = report.targets.filter((t) => !report.perTarget.has(t));
    assert.deepEqual(untouched, [], 'the budget reaches every operation and tool at least once');
    assert.equal(report.failures.length, 0, formatReport(report, replayCommand(engine)));
  });
});
