import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  demoSignalsPath,
  loadSignalsCatalog,
  signalCategories,
  type SignalCategory,
} from '../../../src/agents/signals/catalog/index.ts';
import { evaluate, loadRelevanceSet, ndcgAt, reciprocalRank } from '../../support/relevance.ts';

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

describe('reciprocalRank', () => {
  it('is 1 when the first id is relevant, whatever its grade', () => {
    assert.equal(reciprocalRank(['a', 'b'], { a: 1, b: 2 }), 1);
  });

  it('is 1/3 when the first relevant id is third', () => {
    close(reciprocalRank(['x', 'y', 'a', 'b'], { a: 2, b: 1 }), 1 / 3);
  });

  it('is 0 when nothing relevant is ranked, or only past k', () => {
    assert.equal(reciprocalRank(['x', 'y'], { a: 2 }), 0);
    assert.equal(reciprocalRank([], { a: 2 }), 0);
    const eleventh = [...Array.from({ length: 10 }, (_, i) => `x${i}`), 'a'];
    assert.equal(reciprocalRank(eleventh, { a: 2 }), 0);
    close(reciprocalRank(eleventh, { a: 2 }, 11), 1 / 11);
  });

  it('does not take an inherited property name for a relevant id', () => {
    assert.equal(reciprocalRank(['constructor', 'toString'], { a: 2 }), 0);
  });
});

describe('ndcgAt', () => {
  it('is 1 for the ideal order, and below 1 when the grades are swapped', () => {
    assert.equal(ndcgAt(['a', 'b', 'c'], { a: 2, b: 1, c: 1 }), 1);
    assert.equal(ndcgAt(['a', 'c', 'b', 'x'], { a: 2, b: 1, c: 1 }), 1);
    assert.ok(ndcgAt(['b', 'a', 'c'], { a: 2, b: 1, c: 1 }) < 1);
  });

  it('is 1/2 for the only relevant id at rank 3: 1/log2(4) over 1/log2(2)', () => {
    close(ndcgAt(['x', 'y', 'a'], { a: 1 }), 1 / 2);
    close(ndcgAt(['x', 'y', 'a'], { a: 2 }), 1 / 2);
  });

  it('is 0 when nothing relevant is in the first k', () => {
    assert.equal(ndcgAt(['x', 'y'], { a: 2 }), 0);
    assert.equal(ndcgAt([], { a: 2 }), 0);
    assert.equal(ndcgAt(['x', 'a'], { a: 2 }, 1), 0);
  });

  it('weighs grades by 2^grade − 1 and ranks by 1/log2(rank + 1), normalised by the ideal order', () => {
    // relevant {a: 2, b: 1, c: 1}, ranked [b, x, a, c]:
    //   DCG  = (2^1−1)/log2 2 + 0/log2 3 + (2^2−1)/log2 4 + (2^1−1)/log2 5 = 1 + 0 + 1.5 + 0.430677 = 2.930677
    //   IDCG = [a, b, c]: 3/log2 2 + 1/log2 3 + 1/log2 4                    = 3 + 0.630930 + 0.5    = 4.130930
    //   nDCG = 2.930677 / 4.130930 = 0.709447
    close(ndcgAt(['b', 'x', 'a', 'c'], { a: 2, b: 1, c: 1 }), 0.7094472026641538);
    // At k = 3, c falls off but the ideal still holds all three: 2.5 / 4.130930 = 0.605191.
    close(ndcgAt(['b', 'x', 'a', 'c'], { a: 2, b: 1, c: 1 }, 3), 0.6051906348295047);
  });

  it('cuts the ideal order at k too, so more relevant ids than k do not cap the score below 1', () => {
    assert.equal(ndcgAt(['a', 'b'], { a: 2, b: 2, c: 2, d: 1 }, 2), 1);
  });

  it('counts a repeated id once, where it first appears', () => {
    close(ndcgAt(['a', 'a', 'x'], { a: 2, b: 2 }), 3 / (3 + 3 / Math.log2(3)));
  });
});

describe('evaluate', () => {
  const set = [
    { brief: 'first', relevant: { a: 2, b: 1 } },
    { brief: 'second', relevant: { c: 2 } },
  ] as const;

  it('averages reciprocal rank and nDCG over the briefs and keeps each brief’s top k', () => {
    const rankings: Record<string, string[]> = { first: ['a', 'b', 'x'], second: ['x', 'y', 'c', 'z'] };
    const result = evaluate(set, (brief) => rankings[brief]!, 3);
    close(result.mrr, (1 + 1 / 3) / 2);
    close(result.ndcg, (1 + 1 / 2) / 2);
    assert.deepEqual(result.perBrief, [
      { brief: 'first', rr: 1, ndcg: 1, top: ['a', 'b', 'x'] },
      { brief: 'second', rr: 1 / 3, ndcg: 1 / 2, top: ['x', 'y', 'c'] },
    ]);
  });

  it('scores 0 for a ranker that finds nothing, and refuses an empty set', () => {
    assert.deepEqual(
      evaluate(set, () => []),
      {
        mrr: 0,
        ndcg: 0,
        perBrief: [
          { brief: 'first', rr: 0, ndcg: 0, top: [] },
          { brief: 'second', rr: 0, ndcg: 0, top: [] },
        ],
      },
    );
    assert.throws(() => evaluate([], () => []), RangeError);
  });
});

describe('loadRelevanceSet', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-relevance-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes `yaml` to a file and returns what loading it throws. */
  async function loadError(yaml: string): Promise<Error> {
    const path = join(dir, 'briefs.yaml');
    await writeFile(path, yaml);
    try {
      loadRelevanceSet(path);
    } catch (error) {
      assert.ok(error instanceof Error);
      return error;
    }
    assert.fail('loaded');
  }

  it('reads the briefs and grades of a valid file', async () => {
    const path = join(dir, 'valid.yaml');
    await writeFile(
      path,
      '- brief: "gen z guys"\n  relevant:\n    agr_demo_men_18_24: 2\n    agr_demo_adults_18_24: 1\n',
    );
    assert.deepEqual(loadRelevanceSet(path), [
      { brief: 'gen z guys', relevant: { agr_demo_men_18_24: 2, agr_demo_adults_18_24: 1 } },
    ]);
  });

  it('names the entry that has an empty brief, no relevant ids or a grade other than 1 or 2', async () => {
    const good = '- brief: fine\n  relevant: {a: 2}\n';
    assert.match(
      (await loadError(`${good}- brief: "  "\n  relevant: {a: 2}\n`)).message,
      /entry 2 .*brief must be a non-empty string/,
    );
    assert.match((await loadError(`${good}- relevant: {a: 2}\n`)).message, /entry 2: brief must be a non-empty string/);
    assert.match(
      (await loadError(`${good}- brief: second\n  relevant: {}\n`)).message,
      /entry 2 \("second"\): relevant must map at least one/,
    );
    assert.match(
      (await loadError(`${good}- brief: second\n`)).message,
      /entry 2 \("second"\): relevant must map at least one/,
    );
    assert.match(
      (await loadError(`- brief: first\n  relevant: {a: 0}\n`)).message,
      /entry 1 \("first"\): the grade of a must be 1 or 2, not 0/,
    );
    assert.match((await loadError(`- brief: first\n  relevant: {a: "2"}\n`)).message, /the grade of a must be 1 or 2/);
    assert.match(
      (await loadError(`- brief: first\n  relevant: [a]\n`)).message,
      /entry 1 \("first"\): relevant must map/,
    );
  });

  it('refuses a repeated brief, an unknown key and a file that is not a list', async () => {
    assert.match(
      (await loadError('- brief: same\n  relevant: {a: 2}\n- brief: same\n  relevant: {b: 2}\n')).message,
      /entry 2 \("same"\): repeats a brief/,
    );
    assert.match(
      (await loadError('- brief: first\n  relevent: {a: 2}\n  relevant: {a: 2}\n')).message,
      /unknown key "relevent"/,
    );
    assert.match((await loadError('brief: first\n')).message, /must be a non-empty list/);
    assert.match((await loadError('[]\n')).message, /must be a non-empty list/);
  });
});

describe('the relevance set for the demo catalog', async () => {
  const set = loadRelevanceSet();
  const catalog = await loadSignalsCatalog(demoSignalsPath);
  const byId = new Map(catalog.signals.map((signal) => [signal.signal_agent_segment_id, signal]));

  it('has at least 60 briefs', () => {
    assert.ok(set.length >= 60, `${set.length} briefs`);
  });

  it('expects only marketplace signals that exist in the catalog', () => {
    const problems = set.flatMap(({ brief, relevant }) =>
      Object.keys(relevant).flatMap((id) => {
        const signal = byId.get(id);
        if (!signal) return [`${brief}: ${id} is not in the catalog`];
        return signal.signal_type === 'marketplace' ? [] : [`${brief}: ${id} is ${signal.signal_type}`];
      }),
    );
    assert.deepEqual(problems, []);
  });

  it('has at least 4 briefs for every category, counting a brief for the categories of its grade-2 signals', () => {
    const briefs = new Map<SignalCategory, number>(signalCategories.map((category) => [category, 0]));
    for (const { relevant } of set) {
      const categories = new Set(
        Object.entries(relevant).flatMap(([id, grade]) =>
          grade === 2 && byId.has(id) ? [byId.get(id)!.category] : [],
        ),
      );
      for (const category of categories) briefs.set(category, briefs.get(category)! + 1);
    }
    for (const [category, count] of briefs) assert.ok(count >= 4, `${category}: ${count} briefs`);
  });
});
