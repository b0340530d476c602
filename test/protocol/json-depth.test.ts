import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../src/protocol/json-depth.ts';

const nested = (levels: number): unknown => JSON.parse('['.repeat(levels) + ']'.repeat(levels));

describe('withinJsonDepth', () => {
  it('counts arrays and objects, not scalars', () => {
    assert.equal(withinJsonDepth('text', 0), true);
    assert.equal(withinJsonDepth({ a: [1, { b: 2 }] }, 3), true);
    assert.equal(withinJsonDepth({ a: [1, { b: {} }] }, 3), false);
  });

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    assert.equal(withinJsonDepth(nested(MAX_JSON_DEPTH)), true);
    assert.equal(withinJsonDepth(nested(MAX_JSON_DEPTH + 1)), false);
  });

  it('answers for a value far deeper than the stack would survive walking recursively', () => {
    const value = nested(200_000);
    assert.throws(() => JSON.stringify(value), RangeError);
    assert.equal(withinJsonDepth(value), false);
  });
});
