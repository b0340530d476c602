import { stemOf, wordsOf } from '../../text-search/index.ts';
import type { PolicyEntry } from './standard.ts';

/**
 * A policy as the evaluator applies it: the phrases its text names, each a list of word stems
 * that must all occur in one sentence of the content, and whether it asks to avoid them (the
 * usual "Avoid violence, weapons, or physical aggression") or to find them ("Sports and fitness
 * content is ideal"). Deterministic and explainable: a finding quotes the phrase and the sentence.
 */
export interface Rule {
  policy: PolicyEntry;
  /** The feature it reports under: its first policy category, else its id. */
  feature: string;
  polarity: 'avoid' | 'prefer';
  phrases: Array<{ words: string[]; stems: string[] }>;
}

// Instruction words and generic nouns that say how to treat content, not what it is about.
const fillers = new Set(
  `a an the any all of about on in at to for from by with without into that which who whose this these those such
   is are be been being was were it its as or and nor not no never do don't does must should may might can
   avoid avoiding block blocking exclude excluding excluded prohibit prohibited ban banned prevent steer clear away
   content contents material materials theme themes topic topics imagery image images depiction depictions depicting
   depict portraying portray portrays showing show shows featuring feature features reference references referencing
   related relating involving involve includes include including activity activities context contexts
   ideal preferred prefer favour favor favored favoured is good great suitable appropriate ads ad advertising placement
   placements brand brands positively positive negatively negative glorify glorifying glorification promoting promote
   kind kinds type types form forms other etc e.g i.e like`.split(/\s+/),
);

const preferring = /\b(ideal|prefer(red)?|favou?r(ed)?|welcome[sd]?|encouraged?)\b/i;

/** The rules of a standard's policies, each policy's phrases read from its text once. */
export function rulesOf(policies: readonly PolicyEntry[]): Rule[] {
  return policies.map((policy) => {
    const phrases = new Map<string, { words: string[]; stems: string[] }>();
    // Clauses split at punctuation and at "or"/"and"/"nor": "violence, weapons, or physical
    // aggression" names three things to avoid, the last of two words that must occur together.
    for (const clause of policy.policy.split(/[,.;:()/\n]|\b(?:or|and|nor)\b/i)) {
      const words = wordsOf(clause).filter((w) => !fillers.has(w) && w.length > 1);
      if (words.length === 0 || words.length > 4) continue;
      const stems = words.map(stemOf);
      phrases.set(stems.join(' '), { words, stems });
    }
    return {
      policy,
      feature: policy.policy_categories?.[0] ?? policy.policy_id,
      polarity: preferring.test(policy.policy) ? 'prefer' : 'avoid',
      phrases: [...phrases.values()],
    };
  });
}
