import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalAgentUrl, canonicalRequestAgentUrl } from '../../src/protocol/agent-url.ts';
import { normalizeDomain, normalizeRequestDomain } from '../../src/protocol/domain.ts';
import { ApError } from '../../src/protocol/errors.ts';
import { RecentAnswers } from '../../src/protocol/recent-answers.ts';

describe('recent answers', () => {
  it('keeps at most its size, the oldest leaving first', () => {
    const recent = new RecentAnswers<number>(3);
    for (const [i, input] of ['a', 'b', 'c', 'd'].entries()) assert.equal(recent.set(input, i), i);
    assert.equal(recent.get('a'), undefined);
    assert.deepEqual(
      ['b', 'c', 'd'].map((input) => recent.get(input)),
      [1, 2, 3],
    );
  });

  it('request agent URLs answer as canonicalAgentUrl, asked once or again', () => {
    for (const url of ['HTTPS://Sales.Example:443/%7Emcp', 'https://sales.example/mcp?x=%2f', 'not a url', '']) {
      for (let time = 0; time < 2; time++) assert.equal(canonicalRequestAgentUrl(url), canonicalAgentUrl(url), url);
    }
  });

  it('request domains answer as normalizeDomain, and each refusal names its own field', () => {
    for (let time = 0; time < 2; time++)
      assert.equal(normalizeRequestDomain('HTTPS://Example.COM./'), normalizeDomain('HTTPS://Example.COM./'));
    for (const field of ['domain', 'checks.3.publisher_domain']) {
      assert.throws(
        () => normalizeRequestDomain('bad..example', { field, in: 'body' }),
        (err: unknown) => err instanceof ApError && err.details?.[0]?.field === field && err.details[0].in === 'body',
      );
    }
  });
});
