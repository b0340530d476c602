import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllowList } from '../../src/net/allow-list.ts';

describe('fetch allow list', () => {
  it('allows nothing when blank or absent', () => {
    for (const value of [undefined, '', '  ', ',']) {
      const list = parseAllowList(value);
      assert.equal(list.empty, true);
      assert.equal(list.permits('localhost', 80), false);
      assert.equal(list.mapping('localhost'), undefined);
    }
  });

  it('allows a host:port entry on exactly that port', () => {
    const list = parseAllowList(' localhost:8080 , 127.0.0.1:9000,[::1]:7000');
    assert.equal(list.permits('localhost', 8080), true);
    assert.equal(list.permits('localhost', 8081), false);
    assert.equal(list.permits('127.0.0.1', 9000), true);
    assert.equal(list.permits('::1', 7000), true);
    assert.equal(list.permits('::1', 9000), false);
    assert.equal(list.mapping('localhost'), undefined);
  });

  it('compares hosts in their canonical form', () => {
    const list = parseAllowList('LocalHost:8080,[0:0::1]:7000');
    assert.equal(list.permits('localhost', 8080), true);
    assert.equal(list.permits('::1', 7000), true);
  });

  it('maps a name=ip:port entry on any port and allows it', () => {
    const list = parseAllowList('Pub.Test=127.0.0.1:9000,six.test=[::1]:9001');
    assert.deepEqual(list.mapping('pub.test'), { address: '127.0.0.1', port: 9000 });
    assert.deepEqual(list.mapping('six.test'), { address: '::1', port: 9001 });
    assert.equal(list.permits('pub.test', 443), true);
    assert.equal(list.permits('pub.test', 1234), true);
    // The address itself is not allowed by the mapping.
    assert.equal(list.permits('127.0.0.1', 9000), false);
  });

  it('accepts the same mapping twice', () => {
    assert.deepEqual(parseAllowList('a.test=127.0.0.1:1,a.test=127.0.0.1:1').mapping('a.test'), {
      address: '127.0.0.1',
      port: 1,
    });
  });

  it('throws on a malformed entry, naming it', () => {
    const malformed = [
      'localhost',
      'localhost:',
      'localhost:0',
      'localhost:65536',
      'localhost:http',
      ':8080',
      '::1:8080',
      'user@host:80',
      'host/path:80',
      'pub.test=localhost:9000',
      'pub.test=127.0.0.1',
      '127.0.0.1=127.0.0.1:9000',
      '=127.0.0.1:9000',
      'pub.test=::1:9000',
    ];
    for (const entry of malformed) {
      assert.throws(
        () => parseAllowList(`ok.test:80,${entry}`),
        (error: Error) => error.message.includes(`"${entry}"`),
        entry,
      );
    }
  });

  it('refuses two different targets for one name', () => {
    assert.throws(() => parseAllowList('a.test=127.0.0.1:1,a.test=127.0.0.1:2'), /already mapped/);
  });
});
