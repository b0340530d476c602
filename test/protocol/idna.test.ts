import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { idnaToAscii, IDNA_OPTIONS, toUnicodeDomain, type DomainErrorCode } from '../../src/protocol/idna.ts';
import { knownScripts, labelScripts, mixedScripts } from '../../src/protocol/scripts.ts';

const tr46 = createRequire(import.meta.url)('tr46') as { toASCII(domain: string, options?: object): string | null };

function accepts(host: string, expected: string): void {
  assert.deepEqual(idnaToAscii(host), { ascii: expected }, host);
}

function refuses(host: string, code: DomainErrorCode, reason?: RegExp): void {
  const { problem } = idnaToAscii(host);
  assert.ok(problem, `${JSON.stringify(host)} is refused`);
  assert.equal(problem.code, code, `${JSON.stringify(host)}: ${problem.reason}`);
  if (reason) assert.match(problem.reason, reason, host);
}

// Expected ASCII forms were checked against Python's `idna` 3.x (IDNA 2008, UTS #46 non-transitional).
describe('IDNA 2008 processing (idnaToAscii)', () => {
  it('runs UTS #46 non-transitional: ß and ς stay, capitals and full-width forms are mapped', () => {
    accepts('faß.de', 'xn--fa-hia.de');
    accepts('βόλος.com', 'xn--nxasmm1c.com');
    accepts('bÜcher.de', 'xn--bcher-kva.de');
    accepts('ΒΌΛΟΣ.com', 'xn--nxasmq6b.com');
    accepts('ｅｘａｍｐｌｅ.com', 'example.com');
    accepts('例え。jp', 'xn--r8jz45g.jp');
    accepts('™.com', 'tm.com'); // a compatibility mapping
    accepts('a\u00ADb.com', 'ab.com'); // soft hyphen: ignored
  });

  it('uses the strict flags', () => {
    assert.deepEqual(IDNA_OPTIONS, {
      transitionalProcessing: false,
      checkHyphens: true,
      checkBidi: true,
      checkJoiners: true,
      useSTD3ASCIIRules: true,
      verifyDNSLength: true,
    });
  });

  it('refuses symbols, emoji and punctuation, which UTS #46 accepts but IDNA 2008 does not', () => {
    for (const ch of ['☃', '😀', '💩', '♥', '✓', '©', '¡', '§', '«', '€', '🇺', '⌘', '★', '\u20D0', '\u{1D11E}']) {
      assert.notEqual(
        tr46.toASCII(`a${ch}.com`, IDNA_OPTIONS),
        null,
        `UTS #46 alone accepts U+${ch.codePointAt(0)!.toString(16)}`,
      );
      refuses(`a${ch}.com`, 'domain_disallowed_characters', /which IDNA 2008 does not allow/);
    }
    refuses(
      '☃.com',
      'domain_disallowed_characters',
      /^label "☃" contains U\+2603 "☃", which IDNA 2008 does not allow$/,
    );
    refuses('xn--n3h.com', 'domain_disallowed_characters', /^label "xn--n3h" \("☃"\) contains U\+2603/);
  });

  it('refuses the code points RFC 5892 lists as exceptions or disallows by block', () => {
    for (const ch of ['\u0640', '\u07FA', '\u302E', '\u3031', '\u303B', '\u1100', '\u11A8', '\uA960', '\uD7B0']) {
      refuses(`ab${ch}.com`, 'domain_disallowed_characters');
    }
    accepts('〇.jp', 'xn--w6j.jp'); // U+3007, PVALID by exception
  });

  it('applies the CONTEXTO rules', () => {
    accepts('l·l.cat', 'xn--ll-0ea.cat');
    refuses('a·b.com', 'domain_disallowed_characters', /U\+00B7 "·", outside the context IDNA 2008 allows it in/);
    accepts('α͵β.gr', 'xn--wva3je.gr');
    refuses('α͵b.com', 'domain_disallowed_characters');
    accepts('א׳ב.com', 'xn--4dbc5h.com');
    refuses('a׳b.com', 'domain_disallowed_characters');
    accepts('カ・ナ.jp', 'xn--lck2c6g.jp');
    refuses('ab・cd.jp', 'domain_disallowed_characters');
    accepts('ب٠١.com', 'xn--ngb6id.com');
    refuses('ب٠۰.com', 'domain_disallowed_characters');
  });

  it('applies the CONTEXTJ rules (joiners)', () => {
    accepts('ക്‌ഷ.in', 'xn--bwc2ezc097h.in'); // ZWNJ after a virama
    accepts('क्‍ष.in', 'xn--11b2ezcw70k.in'); // ZWJ after a virama
    accepts('نامه‌ای.ir', 'xn--mgba3gch31f060k.ir'); // ZWNJ between joining letters
    refuses('a\u200Db.com', 'domain_disallowed_characters', /U\+200D, outside the context/);
    refuses('a\u200Cb.com', 'domain_disallowed_characters', /U\+200C, outside the context/);
  });

  it('applies the bidi rule to the whole name', () => {
    accepts('עברית.com', 'xn--5dbqzzl.com');
    accepts('مثال.إختبار', 'xn--mgbh0fb.xn--kgbechtv');
    refuses('עבריתabc.com', 'domain_disallowed_characters', /^label "עבריתabc" breaks the IDNA 2008 bidi rule/);
    refuses('abcעברית.com', 'domain_disallowed_characters', /bidi rule/);
    refuses('1abc.עברית', 'domain_disallowed_characters', /^label "1abc" breaks the IDNA 2008 bidi rule/);
    refuses(
      'xn--abc-tpe4b0c2br.com',
      'domain_disallowed_characters',
      /^label "xn--abc-tpe4b0c2br" \("עבריתabc"\) breaks/,
    );
  });

  it('checks hyphens (CheckHyphens) on the Unicode form', () => {
    refuses('bü--x.de', 'invalid_domain', /has hyphens in the third and fourth positions/);
    refuses('xn--ab--cd-8ya.com', 'invalid_domain', /^label "xn--ab--cd-8ya" \("ab--cdü"\) has hyphens/);
    refuses('-bü.de', 'invalid_domain');
    refuses('bü-.de', 'invalid_domain');
    accepts('b-ü.de', 'xn--b--yka.de'); // the encoded form may have -- at 3–4 after xn--
    accepts('𐐨--𐐩.com', 'xn-----v16nga.com'); // positions count code points, not UTF-16 units
    refuses('𐐨𐐩--𐐪.com', 'invalid_domain', /has hyphens in the third and fourth positions/);
  });

  it('decodes punycode labels and refuses the undecodable and non-canonical ones', () => {
    accepts('xn--d1acpjx3f.xn--p1ai', 'xn--d1acpjx3f.xn--p1ai');
    refuses('xn--zz.com', 'domain_invalid_punycode', /^label "xn--zz" is not valid punycode: it does not decode$/);
    refuses('xn--.com', 'domain_invalid_punycode', /it encodes nothing/);
    refuses('xn--abc-.com', 'domain_invalid_punycode', /it decodes to "abc", which needs no encoding/);
    refuses('xn--bcher-2pa.de', 'domain_invalid_punycode', /decodes to "bÜcher", which is not in the normalized form/);
    refuses('xn--bucher-xyd.de', 'domain_invalid_punycode', /not in the normalized form/);
    refuses('xn--bü.de', 'domain_invalid_punycode', /characters other than ASCII/);
    refuses('xn--a.com', 'domain_disallowed_characters', /U\+0080/); // decodes to a control character
  });

  it('refuses mixed-script labels, also given in punycode', () => {
    refuses('pаypal.com', 'domain_mixed_script', /^label "pаypal" mixes Latin and Cyrillic$/);
    refuses(
      'xn--pypal-4ve.com',
      'domain_mixed_script',
      /^label "xn--pypal-4ve" \("pаypal"\) mixes Latin and Cyrillic$/,
    );
    refuses('pαypal.com', 'domain_mixed_script', /mixes Latin and Greek/);
    refuses('аpple-αpple.com', 'domain_mixed_script', /mixes Cyrillic, Latin and Greek/);
    accepts('яндекс.рф', 'xn--d1acpjx3f.xn--p1ai');
    accepts('ab日本.jp', 'xn--ab-7t7du0c.jp');
  });

  it('reports what is wrong with a name too long once encoded', () => {
    refuses(`${'ä'.repeat(60)}.de`, 'invalid_domain', /longer than 63 characters in its ASCII form/);
    refuses(`${'ä.'.repeat(80)}de`, 'invalid_domain', /longer than 253 characters/);
    refuses('bü..de', 'invalid_domain', /label "" is not a valid host name label/);
  });
});

describe('scripts of a label (UTS #39 Highly Restrictive)', () => {
  it('lists the scripts of the characters, Common and Inherited left out', () => {
    assert.deepEqual(labelScripts('pаypal'), ['Latin', 'Cyrillic']);
    assert.deepEqual(labelScripts('яндекс-2'), ['Cyrillic']);
    assert.deepEqual(labelScripts('例え'), ['Han', 'Hiragana']);
    assert.deepEqual(labelScripts('ラーメン'), ['Katakana']); // ー is Common, used by kana
    assert.deepEqual(labelScripts('e\u0301'), ['Latin']); // combining marks are Inherited
    assert.deepEqual(labelScripts(''), []);
  });

  it('allows one script, and the Japanese, Chinese and Korean mixes with Latin', () => {
    for (const label of [
      'paypal',
      'яндекс',
      'βόλος',
      '例え',
      'ラーメン',
      'abcかな漢字カナ',
      'ㄅ中文',
      'abc中文ㄅ',
      '한국어',
      '한국어漢字abc',
      'abー',
      '123',
      'ٱلعربية',
    ]) {
      assert.equal(mixedScripts(label), undefined, label);
    }
  });

  it('refuses other mixes, naming the scripts', () => {
    assert.deepEqual(mixedScripts('pаypal'), ['Latin', 'Cyrillic']);
    assert.deepEqual(mixedScripts('pαypal'), ['Latin', 'Greek']);
    assert.deepEqual(mixedScripts('αа'), ['Greek', 'Cyrillic']);
    assert.deepEqual(mixedScripts('かな한국'), ['Hiragana', 'Hangul']);
    assert.deepEqual(mixedScripts('ㄅかな'), ['Bopomofo', 'Hiragana']);
    assert.deepEqual(mixedScripts('abcب'), ['Latin', 'Arabic']);
    assert.deepEqual(mixedScripts('ab٣'), ['Latin', 'Arabic']); // Arabic-Indic digits belong to Arabic
  });

  it('knows the script of every code point of this runtime', () => {
    const any = new RegExp(
      `[${knownScripts()
        .map((name) => `\\p{sc=${name}}`)
        .join('')}]`,
      'u',
    );
    const missing: string[] = [];
    for (let cp = 0; cp <= 0x10ffff && missing.length < 10; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (!any.test(String.fromCodePoint(cp))) missing.push(`U+${cp.toString(16)}`);
    }
    assert.deepEqual(missing, [], 'add the new scripts to SCRIPT_NAMES in src/protocol/scripts.ts');
  });
});

describe('toUnicodeDomain', () => {
  it('decodes stored names for display', () => {
    assert.equal(toUnicodeDomain('xn--d1acpjx3f.xn--p1ai'), 'яндекс.рф');
    assert.equal(toUnicodeDomain('XN--D1ACPJX3F.XN--P1AI'), 'яндекс.рф');
    assert.equal(toUnicodeDomain('shop.xn--bcher-kva.de'), 'shop.bücher.de');
    assert.equal(toUnicodeDomain('example.com'), 'example.com');
  });

  it('leaves what IDNA 2008 or the script rule refuses in punycode', () => {
    assert.equal(toUnicodeDomain('xn--pypal-4ve.com'), 'xn--pypal-4ve.com');
    assert.equal(toUnicodeDomain('www.xn--pypal-4ve.xn--p1ai'), 'www.xn--pypal-4ve.рф');
    assert.equal(toUnicodeDomain('xn--n3h.com'), 'xn--n3h.com');
    assert.equal(toUnicodeDomain('xn--zz.com'), 'xn--zz.com');
  });
});
