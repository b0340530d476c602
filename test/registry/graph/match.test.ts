import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchRecords } from '../../../src/registry/graph/match.ts';

const stored = (rid: string, key: string, ...identifiers: string[]) => ({ rid, key, identifiers });
const incoming = (key: string, ...identifiers: string[]) => ({ key, identifiers });

describe('matchRecords', () => {
  it('continues a record by key, creates the unknown, and reports the missing', () => {
    const { matches, missing } = matchRecords(
      [stored('r1', 'a', 'd:a.com'), stored('r2', 'b', 'd:b.com')],
      [incoming('a', 'd:a.com'), incoming('c', 'd:c.com')],
    );
    assert.deepEqual(
      matches.map((m) => [m.next.key, m.rid, m.merged]),
      [
        ['a', 'r1', []],
        ['c', undefined, []],
      ],
    );
    assert.deepEqual(missing, ['r2']);
  });

  it('follows a renamed key through a shared identifier', () => {
    const { matches, missing } = matchRecords([stored('r1', 'old', 'd:a.com')], [incoming('new', 'd:a.com')]);
    assert.deepEqual(
      matches.map((m) => [m.rid, m.merged]),
      [['r1', []]],
    );
    assert.deepEqual(missing, []);
  });

  it('merges records one new record takes in, keeping the one matched by key', () => {
    const { matches } = matchRecords(
      [stored('r1', 'a', 'd:a.com'), stored('r2', 'b', 'd:b.com')],
      [incoming('b', 'd:a.com', 'd:b.com')],
    );
    assert.deepEqual(
      matches.map((m) => [m.rid, m.merged]),
      [['r2', ['r1']]],
    );
  });

  it('never merges away a record another new record keeps by key', () => {
    const { matches } = matchRecords(
      [stored('r1', 'a', 'd:x'), stored('r2', 'b', 'd:y')],
      [incoming('a', 'd:x', 'd:y'), incoming('b', 'd:y')],
    );
    assert.deepEqual(
      matches.map((m) => [m.rid, m.merged]),
      [
        ['r1', []],
        ['r2', []],
      ],
    );
  });

  it('gives a stored record to one new record only (a split creates the other)', () => {
    const { matches } = matchRecords([stored('r1', 'a', 'd:x', 'd:y')], [incoming('p', 'd:x'), incoming('q', 'd:y')]);
    assert.deepEqual(
      matches.map((m) => m.rid),
      ['r1', undefined],
    );
  });
});
