import { namedColors } from './palette.ts';

/** What a build's `message` asks for, as far as this agent follows one. */
export interface Instructions {
  /** Shorter texts: a headline of fewer words, the body's first sentence. */
  shorter: boolean;
  /** The call to action to use instead of the usual one. */
  cta?: string;
  /** A colour to fill the creative with: one of the brand's by role, a hex colour, or a colour's name. */
  emphasis?: { role: 'primary' | 'secondary' | 'accent' } | { hex: string } | { name: string };
}

const shorterWords = /\b(?:shorter|shorten|more concise|concise|briefer|tighter|fewer words|less text|trim(?:med)?)\b/i;
const ctaWords = /\b(?:call[\s-]to[\s-]action|cta|button(?:\s+text)?)\b/i;
const quoted = /"([^"\n]{1,60})"|“([^”\n]{1,60})”|‘([^’\n]{1,60})’|(?:^|\s)'([^'\n]{1,60})'(?=$|[\s.,;:!?])/;
const ctaUnquoted =
  /\b(?:call[\s-]to[\s-]action|cta|button(?:\s+text)?)\s*(?:to|:|=|reads?|says?|as|into)\s+([^.,;!?\n"“”]{1,40})/i;
const emphasisWords = /\b(?:emphasi[sz]e|emphasis|highlight|accentuate|stress|bring out|feature|more|use|make)\b/i;
const hexColor = /#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/i;
const roleColor = /\b(primary|secondary|accent)\b(?:\s+(?:brand\s+)?colou?r)?/i;
const colorName = new RegExp(`\\b(${Object.keys(namedColors).join('|')})\\b`, 'i');

/**
 * Reads the simple instructions a buyer writes in `message` ("make the headline shorter",
 * "change the CTA to \"Shop now\"", "emphasise the secondary colour", "use more #0a7d3b"); the
 * rest of a message (a brief's prose) changes nothing, so the same message always builds the same
 * creative.
 */
export function readInstructions(message: string | undefined): Instructions {
  const text = (message ?? '').slice(0, 2000);
  const instructions: Instructions = { shorter: shorterWords.test(text) };
  const mention = ctaWords.exec(text);
  if (mention) {
    // A quoted label after the mention ("change the CTA to 'Book now'"), else the words it is set to.
    const after = text.slice(mention.index);
    const label = quoted.exec(after) ?? quoted.exec(text);
    const said = label ? label.slice(1).find((g) => g !== undefined) : ctaUnquoted.exec(text)?.[1];
    const cta = said?.trim().replace(/\s+/g, ' ');
    if (cta) instructions.cta = cta;
  }
  // Quoted labels are copy, not colour words ("Shop red shoes").
  const prose = text.replace(new RegExp(quoted.source, 'g'), ' ');
  if (emphasisWords.test(prose)) {
    const hex = hexColor.exec(prose)?.[0];
    const role = roleColor.exec(prose);
    const name = colorName.exec(prose)?.[1];
    if (hex) instructions.emphasis = { hex };
    else if (role && /colou?r/i.test(prose))
      instructions.emphasis = { role: role[1]!.toLowerCase() as 'primary' | 'secondary' | 'accent' };
    else if (name) instructions.emphasis = { name: name.toLowerCase() };
  }
  return instructions;
}
