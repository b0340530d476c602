import type { Offering } from './offering.ts';

/** "promoting our winter sale", "an ad for the Summit Roast", "announcing: spring hours": what the brief is about. */
const subjectAfter =
  /\b(?:promot(?:e|es|ing)|advertis(?:e|es|ing)|announc(?:e|es|ing)|featur(?:e|es|ing)|showcas(?:e|es|ing)|launch(?:es|ing)?|about|for)\s*:?\s+(.+)$/i;
/** Where the subject ends: the brief's directions on tone and look ("with a warm feel", "in blue", "that..."). */
const subjectEnd =
  /\s*(?:[,.;!?(]|\s[-–—]\s|\s(?:with|that|which|using|in a|in an|in the|to drive|to get|aimed at|targeting|featuring|so that|for (?:a|an|the) (?:\w+ )?(?:audience|campaign|crowd))\b)/i;
const leadingWords = /^(?:our|the|a|an|my|their|your|this|new)\s+/i;
const maxWords = 8;

/**
 * The offering a brief alone promotes (build_creative with a `message` and no manifest): its
 * subject, the words after "promoting", "for", "about"... up to the first direction on tone or
 * look, without leading articles and possessives, capitalised: "Create a banner promoting our
 * winter sale with a warm, inviting feel" promotes "Winter sale". A brief naming no subject
 * promotes nothing of its own (the brand does). The same brief always reads the same.
 */
export function offeringFromBrief(message: string | undefined): Offering | undefined {
  const text = (message ?? '').slice(0, 2000).replace(/\s+/g, ' ').trim();
  const match = subjectAfter.exec(text);
  if (!match) return undefined;
  const rest = match[1]!;
  const end = subjectEnd.exec(rest);
  let subject = (end ? rest.slice(0, end.index) : rest).replace(/["“”‘’]/g, '').trim();
  while (leadingWords.test(subject)) subject = subject.replace(leadingWords, '');
  const words = subject.split(' ').filter((w) => w !== '');
  if (words.length === 0 || words.length > maxWords) return undefined;
  const name = words.join(' ');
  return { name: name.charAt(0).toUpperCase() + name.slice(1) };
}
