import { cleanText } from './escape.ts';
import { textWidth, type Weight } from './fonts.ts';

export interface TextStyle {
  weight: Weight;
  size: number;
}

const ellipsis = '…';

/** More than any box shows: a longer text is cut before wrapping, which would otherwise grow with it. */
const maxChars = 2000;

/**
 * `text` broken into at most `maxLines` lines no wider than `width`, at spaces where it can and
 * inside a word too long for a line; what does not fit ends the last line with an ellipsis.
 */
export function wrapText(text: string, style: TextStyle, width: number, maxLines: number): string[] {
  const words = cleanText(text.slice(0, maxChars))
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (maxLines < 1 || words.length === 0 || width <= 0) return [];
  const fits = (line: string) => textWidth(line, style.weight, style.size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (!fits(line) && lines.length <= maxLines) {
      const [head, rest] = splitToFit(line, style, width);
      lines.push(head);
      line = rest;
    }
    if (lines.length > maxLines) break;
  }
  if (line !== '') lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = withEllipsis(kept[maxLines - 1]!, fits);
  return kept;
}

/** The longest head of `word` (at least one character) that fits, and the rest. */
function splitToFit(word: string, style: TextStyle, width: number): [string, string] {
  const chars = [...word];
  let n = 0;
  for (let used = 0; n < chars.length; n++) {
    used += textWidth(chars[n]!, style.weight, style.size);
    if (used > width) break;
  }
  n = Math.max(1, n);
  return [chars.slice(0, n).join(''), chars.slice(n).join('')];
}

/** The line shortened until it and an ellipsis fit. */
function withEllipsis(line: string, fits: (line: string) => boolean): string {
  const chars = [...line];
  while (chars.length > 0 && !fits(`${chars.join('').trimEnd()}${ellipsis}`)) chars.pop();
  return `${chars.join('').trimEnd()}${ellipsis}`;
}
