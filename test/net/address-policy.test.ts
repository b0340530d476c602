import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, isPublicAddress } from '../../src/net/address-policy.ts';

describe('address policy', () => {
  it('lets global unicast through', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '2606:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ]) {
      assert.deepEqual(classifyAddress(ip), { public: true, range: 'unicast' }, ip);
      assert.equal(isPublicAddress(ip), true, ip);
    }
  });

  const refused: Array<[string, string]> = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    // Embedded IPv4 is what the packet reaches, so it is what is judged.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['::7f00:1', 'loopback'],
    ['::808:808', 'reserved'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001::1', 'teredo'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['4000::1', 'reserved'],
  ];
  for (const [ip, range] of refused) {
    it(`refuses ${ip} as ${range}`, () => {
      assert.deepEqual(classifyAddress(ip), { public: false, range });
      assert.equal(isPublicAddress(ip), false);
    });
  }

  it('refuses what the socket layer would not take as an address', () => {
    // Forms a resolver library might accept but a socket would send to DNS.
    for (const text of ['', 'example.com', '127.1', '2130706433', '0x7f000001', '010.0.0.1', '[::1]', '1.2.3.4.5']) {
      assert.deepEqual(classifyAddress(text), { public: false, range: 'invalid' }, text);
    }
  });
});
