import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BestOf } from '../../../../src/agents/signals/search/best-of.ts';
import { Random } from '../../../support/random.ts';

describe('BestOf', () => {
  it('keeps what a full sort would put first (higher score, then lower id), and counts every offer', () => {
    const random = new Random(20261130);
    for (let round = 0; round < 50; round++) {
      const n = random.int(0, 400);
      // Few distinct scores, so ties (broken by id) are common.
      const offers = Array.from({ length: n }, (_, id) => ({ id, score: random.int(1, 8) / 4 }));
      const shuffled = [...offers].sort(() => random.int(-1, 1));
      const keep = random.pick([0, 1, 5, 50, 1000]);
      const best = new BestOf(keep);
      for (const { id, score } of shuffled) best.offer(id, score);
      const expected = [...offers].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, keep);
      assert.deepEqual(best.sorted(), expected, `round ${round}: ${n} offers, keep ${keep}`);
      assert.equal(best.seen, n);
    }
  });
});
