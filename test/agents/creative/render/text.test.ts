import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Resvg } from '@resvg/resvg-js';
import { cleanText, escapeMarkup } from '../../../../src/agents/creative/render/escape.ts';
import { fontFamily, fontFiles, textWidth } from '../../../../src/agents/creative/render/fonts.ts';
import { wrapText } from '../../../../src/agents/creative/render/text-wrap.ts';

/** The width resvg gives the text when it draws it with the same font. */
function drawnWidth(text: string, weight: 'regular' | 'bold', size: number): number {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="100"><text x="0" y="50" font-family="${fontFamily}" font-size="${size}" font-weight="${weight === 'bold' ? 700 : 400}" xml:space="preserve">${escapeMarkup(text)}</text></svg>`;
  const resvg = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [fontFiles.regular, fontFiles.bold] } });
  return resvg.getBBox()!.width;
}

describe('text measuring and wrapping', () => {
  it('measures text as resvg draws it, from the font’s own tables', () => {
    for (const [text, weight, size] of [
      ['Order now', 'bold', 14],
      ['Fresh bread every morning, from ovens lit at four.', 'regular', 14],
      ['Ünïcödé – “quotes” …', 'bold', 17],
    ] as const) {
      const measured = textWidth(text, weight, size);
      const drawn = drawnWidth(text, weight, size);
      // Never narrower than drawn, so wrapped lines fit; wider by kerning (which resvg applies) and
      // the side bearings the bounding box leaves out.
      assert.ok(
        measured >= drawn - 1 && measured <= drawn * 1.03 + size * 0.25,
        `${text}: measured ${measured}, drawn ${drawn}`,
      );
    }
    assert.ok(textWidth('WWW', 'regular', 10) > textWidth('iii', 'regular', 10));
    assert.ok(textWidth('abc', 'bold', 10) > textWidth('abc', 'regular', 10));
  });

  it('wraps at spaces within the width, breaks a word too long for a line, and cuts with an ellipsis', () => {
    const style = { weight: 'regular', size: 14 } as const;
    const lines = wrapText('the quick brown fox jumps over the lazy dog', style, 120, 5);
    assert.ok(lines.length > 1);
    assert.equal(lines.join(' '), 'the quick brown fox jumps over the lazy dog');
    for (const line of lines) assert.ok(textWidth(line, 'regular', 14) <= 120, line);

    const word = 'x'.repeat(60);
    const broken = wrapText(word, style, 100, 10);
    assert.equal(broken.join(''), word);
    for (const line of broken) assert.ok(textWidth(line, 'regular', 14) <= 100, line);

    const cut = wrapText('one two three four five six seven eight nine ten', style, 80, 2);
    assert.equal(cut.length, 2);
    assert.match(cut[1]!, /…$/);
    assert.ok(textWidth(cut[1]!, 'regular', 14) <= 80);

    assert.deepEqual(wrapText('  \n\t ', style, 100, 2), []);
    assert.deepEqual(wrapText('text', style, 100, 0), []);
    assert.equal(wrapText('y'.repeat(1_000_000), style, 200, 3).length, 3, 'a huge text costs no more than what shows');
  });

  it('drops what XML cannot carry and escapes markup', () => {
    assert.equal(cleanText('a\u0000b\u0008c\td\ne\uFFFEf\uD800g'), 'abc\td\nefg');
    assert.equal(cleanText('emoji 😀 stays'), 'emoji 😀 stays');
    assert.equal(
      escapeMarkup(`<a href="x" title='y'>&</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
