import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllowList } from '../../src/net/allow-list.ts';
import { checkAddressLiteral, checkHost, publicOnlyPolicy, type FetchPolicy } from '../../src/net/destination.ts';
import { FetchError, type FetchErrorReason } from '../../src/net/fetch-error.ts';
import { staticResolver } from '../../src/net/resolver.ts';

const resolver = staticResolver({
  'public.test': ['8.8.8.8', '2606:4700::1111'],
  'internal.test': ['10.1.2.3'],
  'mixed.test': ['8.8.8.8', '10.1.2.3'],
  'metadata.test': ['169.254.169.254'],
  'empty.test': [],
  'odd.test': ['2130706433'],
});
const production: FetchPolicy = { resolver, allow: parseAllowList('') };

function refusal(reason: FetchErrorReason, range?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof FetchError);
    assert.equal(error.reason, reason);
    if (range !== undefined) assert.equal(error.range, range);
    return true;
  };
}

describe('checkHost', () => {
  it('returns the addresses of a public host', async () => {
    assert.deepEqual(await checkHost('Public.Test', production), ['8.8.8.8', '2606:4700::1111']);
    assert.deepEqual(await checkHost('8.8.8.8', production), ['8.8.8.8']);
  });

  it('refuses a name with any non-public address, naming host and range', async () => {
    await assert.rejects(checkHost('internal.test', production), refusal('forbidden_address', 'private'));
    await assert.rejects(checkHost('mixed.test', production), refusal('forbidden_address', 'private'));
    await assert.rejects(checkHost('metadata.test', production), (error: FetchError) => {
      assert.match(error.message, /metadata\.test resolves to 169\.254\.169\.254, which is linkLocal/);
      return true;
    });
  });

  it('refuses address literals without a lookup', async () => {
    const noLookups: FetchPolicy = { resolver: () => assert.fail('resolver called'), allow: parseAllowList('') };
    await assert.rejects(checkHost('127.0.0.1', noLookups), refusal('forbidden_address', 'loopback'));
    await assert.rejects(checkHost('[::1]', noLookups), refusal('forbidden_address', 'loopback'));
    await assert.rejects(checkHost('::ffff:10.0.0.1', noLookups), refusal('forbidden_address', 'private'));
    await assert.rejects(checkHost('2130706433', noLookups), refusal('forbidden_address', 'loopback'));
  });

  it('reports lookups that fail or answer nothing usable', async () => {
    await assert.rejects(checkHost('unknown.test', production), refusal('dns_failure'));
    await assert.rejects(checkHost('empty.test', production), refusal('dns_failure'));
    await assert.rejects(checkHost('odd.test', production), refusal('dns_failure'));
    await assert.rejects(checkHost('a b', production), refusal('invalid_url'));
    await assert.rejects(checkHost('host:80', production), refusal('invalid_url'));
  });

  it('lets the allow list through, by port for host:port entries', async () => {
    const policy: FetchPolicy = { resolver, allow: parseAllowList('internal.test:443,mapped.test=10.9.9.9:8080') };
    assert.deepEqual(await checkHost('internal.test', policy), ['10.1.2.3']);
    await assert.rejects(checkHost('internal.test', policy, 80), refusal('forbidden_address'));
    assert.deepEqual(await checkHost('mapped.test', policy, 80), ['10.9.9.9']);
  });

  it('uses the system resolver in production', async () => {
    await assert.rejects(checkHost('localhost', publicOnlyPolicy), refusal('forbidden_address', 'loopback'));
  });
});

describe('checkAddressLiteral', () => {
  const noLookups: FetchPolicy = {
    resolver: () => assert.fail('resolver called'),
    allow: parseAllowList('127.0.0.1:8443'),
  };

  it('refuses a non-public literal, passes a public one and any name, without a lookup', () => {
    assert.throws(() => checkAddressLiteral('127.0.0.1', 443, noLookups), refusal('forbidden_address', 'loopback'));
    assert.throws(
      () => checkAddressLiteral('::ffff:169.254.169.254', 443, noLookups),
      refusal('forbidden_address', 'linkLocal'),
    );
    checkAddressLiteral('8.8.8.8', 443, noLookups);
    checkAddressLiteral('internal.test', 443, noLookups);
  });

  it('lets the allow list through, by port', () => {
    checkAddressLiteral('127.0.0.1', 8443, noLookups);
    assert.throws(() => checkAddressLiteral('127.0.0.1', 443, noLookups), refusal('forbidden_address', 'loopback'));
  });
});
