import { cleanText } from '../render/escape.ts';
import type { Instructions } from './instructions.ts';
import type { Promoted } from './promoted.ts';

/** The words of a creative. Any may be missing: a banner being resized may have none. */
export interface Copy {
  headline?: string;
  body?: string;
  sponsor?: string;
  cta?: string;
}

/**
 * The copy of a build: the source manifest's own texts first (a transformation keeps its words),
 * else composed from what it promotes: the first offering's name as the headline, its description
 * (or tagline) as the body, the brand's name as the sponsor, and a call to action that suits the
 * offering ("Shop now" when it can be bought, else "Learn more"). The message's instructions then
 * apply: its call to action, and shorter texts (a headline of fewer words, the body's first
 * sentence, or fewer words when it has one sentence).
 */
export function composeCopy(source: Copy, promoted: Promoted | undefined, instructions: Instructions): Copy {
  const offering = promoted?.offerings[0];
  const copy: Copy = {
    headline: source.headline ?? offering?.name ?? offering?.tagline ?? promoted?.brand.name,
    body: source.body ?? offering?.description ?? offering?.tagline,
    sponsor: source.sponsor ?? promoted?.brand.name,
    cta:
      instructions.cta ?? source.cta ?? (promoted ? (offering?.checkout_url ? 'Shop now' : 'Learn more') : undefined),
  };
  for (const key of Object.keys(copy) as Array<keyof Copy>) {
    const text = copy[key] === undefined ? undefined : cleanText(copy[key]).replace(/\s+/g, ' ').trim();
    if (text) copy[key] = text;
    else delete copy[key];
  }
  if (instructions.shorter) {
    if (copy.headline) copy.headline = shorten(copy.headline);
    if (copy.body) {
      const first = firstSentence(copy.body);
      copy.body = first.length < copy.body.length ? first : shorten(copy.body);
    }
  }
  return copy;
}

/**
 * A shorter text: the part before a separator (": ", " - ", " | "), else about 60% of its words
 * (not ending on a word like "for"), always fewer than it had. A single word stays as it is:
 * shorter than a word is no text.
 */
export function shorten(text: string): string {
  const head = text.split(/\s*(?::|\s[-–—|])\s+/)[0]!.trim();
  if (head.length > 0 && head.length < text.length) return head;
  const words = text.split(' ');
  if (words.length < 2) return text;
  let kept = Math.min(words.length - 1, Math.max(1, Math.ceil(words.length * 0.6)));
  // "A dark roast for" reads as cut off; "A dark roast" does not.
  while (kept > 1 && dangling.test(words[kept - 1]!)) kept--;
  return trimPunctuation(words.slice(0, kept).join(' '));
}

const dangling = /^(?:a|an|the|and|or|of|for|in|on|to|with|at|by|from|your|our|is|are)$/i;

function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(?:\s|$)/.exec(text);
  return match ? match[1]! : text;
}

const trimPunctuation = (text: string) => text.replace(/[\s,;:–—-]+$/, '');

const ellipsis = '…';

/**
 * `text` within `max` characters (as people count them): whole when it fits, else cut at the last
 * word that fits, with an ellipsis; a single long word is cut where it must.
 */
export function fitText(text: string, max: number | undefined): string {
  const chars = [...text];
  if (max === undefined || chars.length <= max) return text;
  if (max <= 1) return chars.slice(0, Math.max(0, max)).join('');
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space > 0 ? head.slice(0, space) : head;
  return `${trimPunctuation(cut)}${ellipsis}`;
}
