import type { ArtifactContent } from './artifact-content.ts';
import { stemOf, wordsOf } from '../../text-search/index.ts';
import type { Rule } from './rules.ts';
import type { Scope } from './standard.ts';

export type FeatureStatus = 'passed' | 'failed' | 'warning' | 'unevaluated';

/** One policy's outcome (calibrate-content-response.json `features[]`). */
export interface Feature {
  feature_id: string;
  status: FeatureStatus;
  policy_id: string;
  explanation: string;
}

export type Evaluation = {
  verdict: 'pass' | 'fail';
  explanation: string;
  features: Feature[];
};

/** Where the content ran, when known (a delivery record's country and channel). */
export interface Placement {
  country?: string | undefined;
  channel?: string | undefined;
  /** The day evaluated (YYYY-MM-DD), for policies' effective and sunset dates. */
  day: string;
}

interface Sentence {
  where: string;
  text: string;
  stems: Set<string>;
}

/**
 * Evaluates content against a standard's rules, deterministically: each policy in force for the
 * placement is checked phrase by phrase against every sentence the content says; an avoided
 * phrase found (or a preferred one absent) fails a `must` policy and warns on a `should` or
 * `may` one. The verdict fails when any `must` policy fails. Content outside the standard's scope
 * (another country, channel or language) is not judged: every feature is unevaluated and the
 * verdict passes, saying why; so is content that says nothing.
 */
export function evaluate(
  rules: readonly Rule[],
  scope: Scope,
  content: ArtifactContent,
  placement: Placement,
  only?: ReadonlySet<string>,
  /** Why the content is empty, when it is known. */
  silent = 'The artifact says nothing that could be evaluated.',
): Evaluation {
  const applied = rules.filter((r) => !only || only.has(r.feature) || only.has(r.policy.policy_id));
  const outside = outOfScope(scope, content, placement);
  const unevaluated = (why: string): Evaluation => ({
    verdict: 'pass',
    explanation: why,
    features: applied.map((r) => feature(r, 'unevaluated', why)),
  });
  if (outside) return unevaluated(outside);
  if (content.segments.length === 0) return unevaluated(silent);
  const sentences = sentencesOf(content);
  const features = applied.map((rule) => judge(rule, sentences, placement));
  const failed = features.filter((f) => f.status === 'failed');
  const warned = features.filter((f) => f.status === 'warning');
  return {
    verdict: failed.length > 0 ? 'fail' : 'pass',
    explanation:
      failed.length > 0
        ? `Fails ${failed.map((f) => f.policy_id).join(', ')}: ${failed.map((f) => f.explanation).join(' ')}`
        : warned.length > 0
          ? `Passes every required policy; ${warned.map((f) => f.policy_id).join(', ')} ${warned.length === 1 ? 'warns' : 'warn'}.`
          : 'Passes every policy of the standard.',
    features,
  };
}

function judge(rule: Rule, sentences: readonly Sentence[], placement: Placement): Feature {
  const { policy } = rule;
  if (policy.channels?.length && placement.channel !== undefined && !policy.channels.includes(placement.channel))
    return feature(rule, 'unevaluated', `The policy applies to ${policy.channels.join(', ')} only.`);
  if (
    (policy.effective_date && placement.day < policy.effective_date) ||
    (policy.sunset_date && placement.day >= policy.sunset_date)
  )
    return feature(rule, 'unevaluated', 'The policy is not in effect on this day.');
  if (rule.phrases.length === 0) return feature(rule, 'unevaluated', 'The policy names nothing a rule can look for.');
  const found = firstMatch(rule, sentences);
  const breach = rule.polarity === 'avoid' ? found !== undefined : found === undefined;
  if (!breach)
    return feature(
      rule,
      'passed',
      found
        ? `Preferred "${found.phrase}" found in ${found.where}.`
        : `None of ${rule.phrases.map((p) => `"${p.words.join(' ')}"`).join(', ')} found.`,
    );
  const status = policy.enforcement === 'must' ? 'failed' : 'warning';
  return feature(
    rule,
    status,
    found
      ? `"${found.phrase}" found in ${found.where}: "${excerpt(found.text)}".`
      : `None of the preferred ${rule.phrases.map((p) => `"${p.words.join(' ')}"`).join(', ')} found.`,
  );
}

function firstMatch(rule: Rule, sentences: readonly Sentence[]) {
  for (const sentence of sentences)
    for (const phrase of rule.phrases)
      if (phrase.stems.every((s) => sentence.stems.has(s)))
        return { phrase: phrase.words.join(' '), where: sentence.where, text: sentence.text };
  return undefined;
}

function feature(rule: Rule, status: FeatureStatus, explanation: string): Feature {
  return { feature_id: rule.feature, status, policy_id: rule.policy.policy_id, explanation };
}

/** Why content is outside the standard's scope, or undefined when it is inside (or its placement is unknown). */
function outOfScope(scope: Scope, content: ArtifactContent, placement: Placement): string | undefined {
  const { country, channel } = placement;
  if (
    country !== undefined &&
    scope.countries_all &&
    !scope.countries_all.some((c) => c.toUpperCase() === country.toUpperCase())
  )
    return `Delivered in ${country}, outside the standard's countries (${scope.countries_all.join(', ')}).`;
  if (channel !== undefined && scope.channels_any && !scope.channels_any.includes(channel))
    return `Delivered on ${channel}, outside the standard's channels (${scope.channels_any.join(', ')}).`;
  const language = content.language?.toLowerCase();
  if (language && scope.languages_any && !scope.languages_any.some((l) => sameLanguage(l.toLowerCase(), language)))
    return `Content in ${content.language}, outside the standard's languages (${scope.languages_any.join(', ')}).`;
  return undefined;
}

/** BCP 47 tags agree when one is the other or a more specific form of it ("en" and "en-GB"). */
const sameLanguage = (a: string, b: string) => a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);

/** The content's sentences (each segment split at sentence ends), with their words' stems. */
function sentencesOf(content: ArtifactContent): Sentence[] {
  const out: Sentence[] = [];
  for (const segment of content.segments)
    for (const text of segment.text.split(/(?<=[.!?])\s+|\n+/)) {
      const words = wordsOf(text);
      if (words.length > 0) out.push({ where: segment.where, text, stems: new Set(words.map(stemOf)) });
    }
  return out;
}

const excerpt = (text: string): string => (text.length > 160 ? `${text.slice(0, 157)}…` : text).trim();
