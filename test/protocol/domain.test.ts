import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeDomain } from '../../src/protocol/domain.ts';
import { ApError } from '../../src/protocol/errors.ts';

describe('domain normalization', () => {
  it('strips the protocol, lowercases, trims and drops the trailing dot', () => {
    for (const [input, expected] of [
      ['example.com', 'example.com'],
      ['  HTTPS://Example.COM  ', 'example.com'],
      ['http://news.example.co.uk.', 'news.example.co.uk'],
      ['https://example.com/', 'example.com'],
      ['Bücher.de', 'xn--bcher-kva.de'],
      ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ]) {
      assert.equal(normalizeDomain(input!), expected, input);
    }
  });

  it('rejects what is not a bare host name with 400 invalid_domain', () => {
    for (const input of [
      '',
      '   ',
      'example.com/path',
      'example.com?x=1',
      'example.com:8080',
      'user:pass@example.com',
      'https://user@example.com',
      '127.0.0.1',
      '[::1]',
      '::1',
      'localhost',
      'exa mple.com',
      'ex_ample.com',
      '-example.com',
      'example-.com',
      'a..com',
      'example.123',
      `${'a'.repeat(64)}.com`,
      `${'a.'.repeat(127)}com`,
      'xn--zz.com',
    ]) {
      assert.throws(
        () => normalizeDomain(input),
        (err: unknown) => err instanceof ApError && err.code === 'invalid_domain' && err.status === 400,
        JSON.stringify(input),
      );
    }
  });

  it('names the field, the part of the request it came from and the reason', () => {
    assert.throws(
      () => normalizeDomain('example.com:443', { field: 'publisher_domain', in: 'body' }),
      (err: unknown) =>
        err instanceof ApError &&
        /Invalid publisher_domain "example\.com:443": a domain has no port/.test(err.message) &&
        JSON.stringify(err.details) === JSON.stringify([{ in: 'body', field: 'publisher_domain', message: 'a domain has no port' }]),
    );
    assert.throws(
      () => normalizeDomain('10.0.0.1'),
      (err: unknown) => err instanceof ApError && JSON.stringify(err.details) === JSON.stringify([{ in: 'query', field: 'domain', message: 'IP addresses are not domains' }]),
    );
  });
});
