import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelScripts, normalizeDomain, toUnicodeDomain } from '../../src/protocol/domain.ts';
import { ApError, errorBody, type ErrorCode } from '../../src/protocol/errors.ts';

/** Asserts that normalizing `input` fails with 400 and `code`, and returns the error. */
function refused(input: string, code: ErrorCode): ApError {
  let caught: unknown;
  try {
    normalizeDomain(input);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ApError, `${JSON.stringify(input)} is refused`);
  assert.equal(caught.code, code, `${JSON.stringify(input)}: ${caught.message}`);
  assert.equal(caught.status, 400);
  return caught;
}

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
      'ab--cd.com',
      'r3--x.example',
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
        JSON.stringify(err.details) ===
          JSON.stringify([{ in: 'body', field: 'publisher_domain', message: 'a domain has no port' }]),
    );
    assert.throws(
      () => normalizeDomain('10.0.0.1'),
      (err: unknown) =>
        err instanceof ApError &&
        JSON.stringify(err.details) ===
          JSON.stringify([{ in: 'querystring', field: 'domain', message: 'IP addresses are not domains' }]),
    );
  });

  it('refuses hosts the URL standard reads as IPv4 addresses (the last label is a number) with 400 invalid_domain', () => {
    for (const input of [
      '0x7f.0.0.0x1',
      '10.0.0.0x1',
      '0xa9.0xfe.0xa9.0xfe',
      'example.0x1',
      'example.0X1',
      'example.0x',
      '1.2.3',
      'foo.123',
      'foo.0177',
      '127.0.0.1.',
    ]) {
      const err = refused(input, 'invalid_domain');
      assert.match(err.details![0]!.message, /number/, input);
    }
    // A label that only starts like a number is a name: URLs read these as domains too.
    for (const input of ['example.0xg', 'example.1a', '0x7f.example', 'foo.x1'])
      assert.equal(normalizeDomain(input), input);
  });

  it('keeps plain ASCII names as they are (no IDNA processing) and refuses -- in the third and fourth positions', () => {
    assert.equal(normalizeDomain('ab-cd.example'), 'ab-cd.example');
    assert.equal(normalizeDomain('a--b.example'), 'a--b.example');
    assert.equal(normalizeDomain('abc--d.example'), 'abc--d.example');
    const err = refused('ab--cd.com', 'invalid_domain');
    assert.match(
      err.message,
      /label "ab--cd" has hyphens in the third and fourth positions, which are reserved for encodings like xn--/,
    );
  });
});

describe('internationalized names (IDNA 2008, UTS #46 non-transitional)', () => {
  it('stores Unicode names in their ASCII form and accepts that form as the same name', () => {
    for (const [input, expected] of [
      ['яндекс.рф', 'xn--d1acpjx3f.xn--p1ai'],
      ['xn--d1acpjx3f.xn--p1ai', 'xn--d1acpjx3f.xn--p1ai'],
      ['XN--D1ACPJX3F.XN--P1AI', 'xn--d1acpjx3f.xn--p1ai'],
      ['https://яндекс.рф/', 'xn--d1acpjx3f.xn--p1ai'],
      ['例え.jp', 'xn--r8jz45g.jp'],
      ['例え。jp。', 'xn--r8jz45g.jp'], // ideographic full stops are dots
      ['BÜCHER.de', 'xn--bcher-kva.de'],
      ['bÜcher.DE.', 'xn--bcher-kva.de'],
      ['مثال.إختبار', 'xn--mgbh0fb.xn--kgbechtv'],
      ['עברית.com', 'xn--5dbqzzl.com'],
      ['한국어.kr', 'xn--3e0bk47br7k.kr'],
    ]) {
      assert.equal(normalizeDomain(input!), expected, input);
    }
  });

  it('maps what UTS #46 maps: full-width forms to ASCII', () => {
    assert.equal(normalizeDomain('ｅｘａｍｐｌｅ.com'), 'example.com');
    assert.equal(normalizeDomain('ＥＸＡＭＰＬＥ．ＣＯＭ'), 'example.com');
    assert.equal(normalizeDomain('ｘｎ－－ｄ１ａｃｐｊｘ３ｆ.рф'), 'xn--d1acpjx3f.xn--p1ai');
  });

  it('keeps ß and ς (non-transitional), and lowercases capital sigma to σ as UTS #46 does', () => {
    assert.equal(normalizeDomain('faß.de'), 'xn--fa-hia.de');
    assert.notEqual(normalizeDomain('faß.de'), 'fass.de');
    assert.equal(normalizeDomain('xn--fa-hia.de'), 'xn--fa-hia.de');
    assert.equal(normalizeDomain('straße.de'), 'xn--strae-oqa.de');
    assert.equal(normalizeDomain('βόλος.com'), 'xn--nxasmm1c.com'); // final sigma kept
    assert.equal(normalizeDomain('βόλοσ.com'), 'xn--nxasmq6b.com');
    assert.equal(normalizeDomain('ΒΌΛΟΣ.com'), 'xn--nxasmq6b.com'); // Σ maps to σ, never to ς
  });

  it('refuses code points IDNA 2008 disallows with 400 domain_disallowed_characters', () => {
    for (const input of [
      '☃.com', // a symbol UTS #46 accepts but IDNA 2008 does not
      'xn--n3h.com', // the same, in punycode
      '😀.com',
      'xn--ls8h.la',
      '✓.com',
      '€uro.com',
      'i❤.ws',
      'a\u200Db.com', // zero width joiner outside a virama context
      'a\u200Cb.com', // zero width non-joiner likewise
      'a·b.com', // middle dot outside l·l
      'ab・cd.jp', // katakana middle dot without kana or Han
      '\u0301ab.com', // a label beginning with a combining mark
      'ᄀ.kr', // conjoining (old) Hangul jamo
    ]) {
      refused(input, 'domain_disallowed_characters');
    }
  });

  it('refuses names breaking the bidi rule with 400 domain_disallowed_characters', () => {
    for (const input of ['עבריתabc.com', 'abcעברית.com', '1abc.עברית', 'xn--abc-tpe4b0c2br.com']) {
      refused(input, 'domain_disallowed_characters');
    }
  });

  it('refuses labels mixing scripts with 400 domain_mixed_script, naming the label and the scripts', () => {
    const cyrillic = refused('pаypal.com', 'domain_mixed_script'); // Cyrillic а (U+0430)
    assert.match(cyrillic.message, /: label "pаypal" mixes Latin and Cyrillic\.$/);
    assert.deepEqual(cyrillic.details, [
      { in: 'querystring', field: 'domain', message: 'label "pаypal" mixes Latin and Cyrillic' },
    ]);
    const greek = refused('pαypal.com', 'domain_mixed_script'); // Greek α
    assert.match(greek.message, /label "pαypal" mixes Latin and Greek/);
    // the punycode form of a mixed-script label is refused the same way
    const encoded = refused('xn--pypal-4ve.com', 'domain_mixed_script');
    assert.match(encoded.message, /label "xn--pypal-4ve" \("pаypal"\) mixes Latin and Cyrillic/);
    refused('ひらがな한국.com', 'domain_mixed_script'); // Japanese kana with Korean Hangul
    refused('www.pаypal.com', 'domain_mixed_script');
  });

  it('accepts the script mixes UTS #39 "Highly Restrictive" allows', () => {
    for (const [input, expected] of [
      ['例え.jp', 'xn--r8jz45g.jp'], // Han + Hiragana
      ['ラーメン.jp', 'xn--4dkp5a8a.jp'], // Katakana and the prolonged sound mark
      ['abc日本語かな.jp', 'xn--abc-n73b9ft993ao4bc84j.jp'], // Latin + Han + Hiragana
      ['ㄅ中文.tw', 'xn--5ekt19fo6p.tw'], // Bopomofo + Han
      ['한국어abc.kr', 'xn--abc-lt8l948gbwt.kr'], // Hangul + Latin
      ['яндекс-2.рф', 'xn---2-jlcezp5a4h.xn--p1ai'], // digits and hyphens count for no script
    ]) {
      assert.equal(normalizeDomain(input!), expected, input);
    }
  });

  it('refuses undecodable or non-canonical punycode with 400 domain_invalid_punycode', () => {
    for (const input of [
      'xn--zz.com', // does not decode
      'xn--.com', // encodes nothing
      'xn--abc-.com', // decodes to plain ASCII
      'xn--bcher-2pa.de', // decodes to bÜcher: not the mapped (lowercase) form of bücher
      'xn--bucher-xyd.de', // decodes to u + combining diaeresis: not NFC
      'ｘｎ－－ｚｚ.com',
      'xn--bü.de',
    ]) {
      refused(input, 'domain_invalid_punycode');
    }
    assert.match(refused('xn--zz.com', 'domain_invalid_punycode').message, /label "xn--zz" is not valid punycode/);
  });

  it('refuses the syntax errors of internationalized names with 400 invalid_domain', () => {
    for (const input of [
      'bü_cher.de',
      'bü cher.de',
      '-bü.de',
      'bü-.de',
      'bü--x.de', // hyphens in the third and fourth positions
      'xn--ab--cd-8ya.com', // ... also once decoded
      'ｅｘａｍｐｌｅ．com／path', // full-width solidus maps to /
      '１２７.０.０.１', // full-width digits map to an IP address
      'bücher',
      'bücher.例..jp',
      `${'ä'.repeat(60)}.de`, // 63+ characters once encoded
    ]) {
      refused(input, 'invalid_domain');
    }
  });

  it('names the field and the part of the request in the details, whatever the code', () => {
    assert.throws(
      () => normalizeDomain('☃.com', { field: 'domains.3', in: 'body' }),
      (err: unknown) =>
        err instanceof ApError &&
        err.code === 'domain_disallowed_characters' &&
        err.message === 'Invalid domains.3 "☃.com": label "☃" contains U+2603 "☃", which IDNA 2008 does not allow.' &&
        JSON.stringify(errorBody(err).details) ===
          JSON.stringify([
            {
              in: 'body',
              field: 'domains.3',
              message: 'label "☃" contains U+2603 "☃", which IDNA 2008 does not allow',
            },
          ]),
    );
  });

  it('spells out invisible code points in messages', () => {
    assert.match(
      refused('a\u200Db.com', 'domain_disallowed_characters').message,
      /label "a<U\+200D>b" contains U\+200D,/,
    );
  });

  it('shows stored names in Unicode, but keeps refused labels in punycode', () => {
    assert.equal(toUnicodeDomain('xn--d1acpjx3f.xn--p1ai'), 'яндекс.рф');
    assert.equal(toUnicodeDomain('xn--fa-hia.de'), 'faß.de');
    assert.equal(toUnicodeDomain('example.com'), 'example.com');
    assert.equal(toUnicodeDomain('xn--pypal-4ve.com'), 'xn--pypal-4ve.com'); // mixed script
    assert.equal(toUnicodeDomain('xn--n3h.com'), 'xn--n3h.com'); // ☃
    assert.equal(toUnicodeDomain('xn--zz.com'), 'xn--zz.com'); // undecodable
    for (const domain of ['bücher.de', '例え.jp', 'مثال.إختبار'])
      assert.equal(toUnicodeDomain(normalizeDomain(domain)), domain);
  });

  it('lists the scripts of a label', () => {
    assert.deepEqual(labelScripts('pаypal'), ['Latin', 'Cyrillic']);
    assert.deepEqual(labelScripts('例え'), ['Han', 'Hiragana']);
    assert.deepEqual(labelScripts('ラーメン'), ['Katakana']);
    assert.deepEqual(labelScripts('123-4'), []);
  });
});
