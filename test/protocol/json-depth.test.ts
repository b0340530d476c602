import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  brokenJsonBound,
  MAX_JSON_DEPTH,
  MAX_JSON_MEMBERS,
  requestBounds,
  withinJsonDepth,
} from '../../src/protocol/json-depth.ts';

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

describe('brokenJsonBound', () => {
  const wide = (members: number) => Object.fromEntries(Array.from({ length: members }, (_, i) => [`k${i}`, i]));

  it(`takes objects of ${MAX_JSON_MEMBERS} members anywhere in a request and refuses one more`, () => {
    assert.equal(brokenJsonBound({ a: [wide(MAX_JSON_MEMBERS)] }, requestBounds), undefined);
    assert.equal(brokenJsonBound({ a: [1, { b: wide(MAX_JSON_MEMBERS + 1) }] }, requestBounds), 'members');
  });

  it('counts members of objects, not elements of arrays', () => {
    assert.equal(brokenJsonBound({ list: Array.from({ length: 20_000 }, (_, i) => i) }, requestBounds), undefined);
  });

  it('names the depth when a body nests too deeply', () => {
    assert.equal(brokenJsonBound(nested(MAX_JSON_DEPTH + 1), requestBounds), 'depth');
  });
});
