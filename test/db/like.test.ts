import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { likePattern, maxLikeText } from '../../src/db/like.ts';

describe('likePattern: the substring pattern a search sends', () => {
  it('takes %, _ and \\ literally', () => {
    assert.equal(likePattern('100%_a\\b'), '%100\\%\\_a\\\\b%');
    assert.equal(likePattern(''), null);
    assert.equal(likePattern(undefined), null);
  });

  it('looks for the whole text up to maxLikeText characters, whatever it is made of', () => {
    const oneWord = 'a'.repeat(maxLikeText);
    assert.equal(likePattern(oneWord), `%${oneWord}%`);
    const manyWords = Array.from({ length: 100 }, (_, i) => `w${i}`)
      .join(' ')
      .slice(0, maxLikeText);
    assert.equal(likePattern(manyWords), `%${manyWords}%`);
    const repeated = 'ab '.repeat(100).slice(0, maxLikeText);
    assert.equal(likePattern(repeated), `%${repeated}%`);
  });

  it('bounds its pattern whatever text it is given: a longer one is searched by its first maxLikeText characters', () => {
    for (const q of ['q'.repeat(60_000), 'word '.repeat(20_000), '%'.repeat(10_000)]) {
      const pattern = likePattern(q)!;
      const text = pattern.slice(1, -1).replaceAll(/\\(.)/g, '$1');
      assert.equal(text, q.slice(0, maxLikeText));
      assert.ok(pattern.length <= 2 * maxLikeText + 2);
    }
  });

  it('never cuts a character in two', () => {
    const q = `a${'😀'.repeat(maxLikeText)}`;
    const text = likePattern(q)!.slice(1, -1);
    assert.equal(Array.from(text).length, maxLikeText);
    assert.equal(text, `a${'😀'.repeat(maxLikeText - 1)}`);
  });
});
