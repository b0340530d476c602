import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../../src/protocol/schemas.ts';
import { answerBySql, type Answer } from '../../support/authorization-by-sql.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { Random } from '../../support/random.ts';
import { RandomWorld, type Question } from '../../support/random-authorization-world.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/**
 * The in-memory authorization index against the same questions evaluated in SQL over the graph's
 * tables (test/support/authorization-by-sql.ts), on a randomly generated graph: first as the index
 * loads it from the feed snapshot, then after each round of random re-crawls, as it follows the
 * feed. A failure names its seed; EQUIVALENCE_SEED replays it.
 */
const seed = Number(process.env['EQUIVALENCE_SEED'] ?? 20261123);
const questionsPerRound = 1500;
const rounds = 3;
const bulkLimit = 1000;

eachEngine('authorization index and SQL agree on a random graph', (engine) => {
  let server: TestServer;
  const world = new RandomWorld(new Random(seed));
  const seen = new Map<string, number>();
  let cases = 0;

  before(async () => {
    // Written before the server starts: the index loads this world from the snapshot.
    server = await startTestServer(engine, { extend: (_app, db) => world.build(db).then(() => {}) });
  });
  after(() => server?.close());

  const indexAnswers = async (questions: readonly Question[]): Promise<Array<Answer & { message?: string }>> => {
    const out: Array<Answer & { message?: string }> = [];
    for (let i = 0; i < questions.length; i += bulkLimit) {
      const res = await fetch(`${server.url}/api/registry/validate/property-authorization`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ checks: questions.slice(i, i + bulkLimit) }),
      });
      const body = await json(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      for (const { result } of body['results'])
        out.push({ status: result.status, code: result.violation?.code ?? null, message: result.violation?.message });
    }
    return out;
  };

  /** The files as the crawler would have accepted them: valid against the protocol's schemas. */
  const assertValidFiles = () => {
    for (const [schema, docs] of [
      [ADAGENTS_SCHEMA_ID, world.adagents],
      [BRAND_SCHEMA_ID, world.brands],
    ] as const) {
      for (const [domain, doc] of docs) {
        const validation = validateSchema(schema, doc);
        assert.ok(validation.valid, `${domain}: ${JSON.stringify(validation)}`);
      }
    }
  };

  const compare = async () => {
    assertValidFiles();
    const head = await server.db.query<{ head: string | null }>(
      'select event_id::text as head from registry_events order by event_id desc limit 1',
    );
    if (head[0]?.head) await server.app.authorizationIndex.reached(head[0].head);
    const questions = world.questions(questionsPerRound);
    const [expected, actual] = [await answerBySql(server.db, questions), await indexAnswers(questions)];
    const disagreements = questions.flatMap((question, i) => {
      const { message, ...index } = actual[i]!;
      const key = `${expected[i]!.status}/${expected[i]!.code ?? '-'}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return index.status === expected[i]!.status && index.code === expected[i]!.code
        ? []
        : [{ question, index, message, sql: expected[i] }];
    });
    cases += questions.length;
    assert.deepEqual(
      disagreements.slice(0, 5),
      [],
      `seed ${seed}: ${disagreements.length} of ${questions.length} answers differ`,
    );
  };

  it('agree on the graph as first crawled, loaded from the snapshot', compare);

  for (let round = 1; round <= rounds; round++) {
    it(`agree after round ${round} of re-crawls, applied from the feed`, async () => {
      await world.change(server.db);
      await compare();
    });
  }

  it('asked questions reaching every answer of the check', (t) => {
    const outcomes = [
      'authorized/-',
      'unknown/property_stale',
      'unknown/publisher_file_unknown',
      'unauthorized/property_not_found',
      'unauthorized/agent_not_authorized',
      'unauthorized/delegation_mismatch',
      'unauthorized/operator_not_declared',
      'unauthorized/relationship_mismatch',
    ];
    assert.deepEqual(
      outcomes.filter((o) => !seen.has(o)),
      [],
      JSON.stringify(Object.fromEntries(seen)),
    );
    assert.equal(cases, questionsPerRound * (rounds + 1));
    t.diagnostic(`${cases} cases, seed ${seed}: ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
  });
});
