import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthorizationIndex } from '../../../src/registry/lookups/index.ts';
import { IndexAnswers } from '../../../src/registry/lookups/index-answers.ts';

/** The answers kept for the check and the domain lookup: never older than the index, never beyond their bounds. */
describe('IndexAnswers', () => {
  const counting = () => {
    let computed = 0;
    return { compute: (value: string) => () => (computed++, value), computed: () => computed };
  };

  it('answers a repeated key from memory until the index applies any event', () => {
    const index = new AuthorizationIndex();
    const answers = new IndexAnswers<string>({ entries: 10 });
    const c = counting();
    assert.equal(answers.get(index, '/a', c.compute('one')), 'one');
    assert.equal(answers.get(index, '/a', c.compute('two')), 'one');
    assert.equal(c.computed(), 1);
    index.apply('publisher.updated', { domain: 'pub.example' });
    assert.equal(answers.get(index, '/a', c.compute('three')), 'three', 'a change to the index drops what was kept');
    assert.equal(answers.get(new AuthorizationIndex(), '/a', c.compute('four')), 'four', 'so does a rebuilt index');
  });

  it('drops the oldest entries beyond its entry and size bounds, and keeps nothing larger than the size bound', () => {
    const index = new AuthorizationIndex();
    const answers = new IndexAnswers<string>({ entries: 2, size: 10, sizeOf: (v) => v.length });
    const c = counting();
    answers.get(index, '/1', c.compute('aaa'));
    answers.get(index, '/2', c.compute('bbb'));
    answers.get(index, '/3', c.compute('ccc'));
    assert.equal(answers.get(index, '/1', c.compute('AAA')), 'AAA', 'the oldest went at the third entry');
    assert.equal(answers.get(index, '/3', c.compute('CCC')), 'ccc');
    answers.get(index, '/4', c.compute('dddddddd')); // 8 + 3 > 10: everything older goes
    assert.equal(answers.get(index, '/3', c.compute('CCC')), 'CCC');
    assert.equal(answers.get(index, '/big', c.compute('x'.repeat(11))), 'x'.repeat(11));
    assert.equal(answers.get(index, '/big', c.compute('y')), 'y', 'an answer over the size bound is not kept');
  });

  it('keeps nothing with a capacity of 0', () => {
    const index = new AuthorizationIndex();
    const answers = new IndexAnswers<string>({ entries: 0 });
    const c = counting();
    answers.get(index, '/a', c.compute('one'));
    assert.equal(answers.get(index, '/a', c.compute('two')), 'two');
  });
});
