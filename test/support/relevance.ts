import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The yardstick for ranking signals against a buyer's brief: hand-graded judgements (which
 * catalog signals a planner would pick for a brief) and the two standard measures of a ranking
 * against them, mean reciprocal rank (is something right near the top?) and nDCG (is the whole
 * top k in the order a planner would want?). Independent of any ranker, so it can judge them all.
 */

/** How well a signal fits a brief: 2 = exactly what the planner wants at the top, 1 = also fitting. */
export type Grade = 1 | 2;

export interface RelevanceJudgement {
  readonly brief: string;
  /** `signal_agent_segment_id` → grade; a signal not listed is not relevant. */
  readonly relevant: Readonly<Record<string, Grade>>;
}

export type RelevanceSet = readonly RelevanceJudgement[];

export interface BriefScore {
  readonly brief: string;
  readonly rr: number;
  readonly ndcg: number;
  /** The first k ids the ranker returned, to show what it put above the relevant ones. */
  readonly top: readonly string[];
}

export interface Evaluation {
  /** Mean reciprocal rank over the briefs. */
  readonly mrr: number;
  /** Mean nDCG@k over the briefs. */
  readonly ndcg: number;
  readonly perBrief: readonly BriefScore[];
}

/** The judgements for the demo signals catalog. */
export const defaultRelevanceSetPath = join(import.meta.dirname, '..', 'agents', 'signals', 'relevance', 'briefs.yaml');

const entryKeys = new Set(['brief', 'relevant']);

/**
 * Reads a relevance set: a YAML list of `{brief, relevant: {id: grade}}`. Every entry must have a
 * non-empty brief, used by no other entry, and at least one relevant id, each graded 1 or 2 (a
 * grade 0 or a typo would silently weaken the yardstick). Throws an Error naming the entry.
 */
export function loadRelevanceSet(path: string = defaultRelevanceSetPath): RelevanceSet {
  const document: unknown = parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(document) || document.length === 0) throw new Error(`${path}: must be a non-empty list of briefs`);
  const seen = new Set<string>();
  return document.map((entry: unknown, index) => {
    const name = `${path}: entry ${index + 1}${isRecord(entry) && typeof entry['brief'] === 'string' ? ` (${JSON.stringify(entry['brief'])})` : ''}`;
    const judgement = checkEntry(entry, name);
    if (seen.has(judgement.brief)) throw new Error(`${name}: repeats a brief`);
    seen.add(judgement.brief);
    return judgement;
  });
}

function checkEntry(entry: unknown, name: string): RelevanceJudgement {
  if (!isRecord(entry)) throw new Error(`${name}: must be a map with brief and relevant`);
  const unknownKey = Object.keys(entry).find((key) => !entryKeys.has(key));
  if (unknownKey !== undefined) throw new Error(`${name}: has an unknown key ${JSON.stringify(unknownKey)}`);
  const { brief, relevant } = entry;
  if (typeof brief !== 'string' || brief.trim() === '') throw new Error(`${name}: brief must be a non-empty string`);
  if (!isRecord(relevant) || Object.keys(relevant).length === 0)
    throw new Error(`${name}: relevant must map at least one signal id to a grade`);
  for (const [id, grade] of Object.entries(relevant)) {
    if (id.trim() === '') throw new Error(`${name}: relevant has an empty signal id`);
    if (grade !== 1 && grade !== 2)
      throw new Error(`${name}: the grade of ${id} must be 1 or 2, not ${JSON.stringify(grade)}`);
  }
  return { brief, relevant: relevant as Record<string, Grade> };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The grade of `id`, 0 when it is not relevant (own keys only, so `constructor` is not a signal). */
function gradeOf(relevant: Readonly<Record<string, number>>, id: string): number {
  return Object.hasOwn(relevant, id) ? relevant[id]! : 0;
}

/** 1 / the rank of the first relevant id (grade ≥ 1) among the first `k` of `ranked`; 0 if none is there. */
export function reciprocalRank(ranked: readonly string[], relevant: Readonly<Record<string, number>>, k = 10): number {
  const rank = ranked.slice(0, k).findIndex((id) => gradeOf(relevant, id) >= 1);
  return rank === -1 ? 0 : 1 / (rank + 1);
}

/**
 * Normalised discounted cumulative gain of the first `k` of `ranked`: each relevant id at rank r
 * gains (2^grade − 1) / log2(r + 1), and the sum is divided by the gain of the ideal ordering (the
 * relevant grades, highest first, cut at k), so a perfect top k scores 1. An id repeated in
 * `ranked` gains only where it first appears, so a ranker cannot score by repeating its best guess.
 */
export function ndcgAt(ranked: readonly string[], relevant: Readonly<Record<string, number>>, k = 10): number {
  const ideal = Object.values(relevant)
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a);
  const idealGain = discountedGain(ideal.slice(0, k));
  if (idealGain === 0) return 0;
  const seen = new Set<string>();
  const grades = ranked.slice(0, k).map((id) => {
    const first = !seen.has(id);
    seen.add(id);
    return first ? gradeOf(relevant, id) : 0;
  });
  return discountedGain(grades) / idealGain;
}

function discountedGain(grades: readonly number[]): number {
  return grades.reduce((sum, grade, index) => sum + (2 ** grade - 1) / Math.log2(index + 2), 0);
}

/** Ranks every brief of `set` with `rank` and scores it: the means and each brief's scores and top k. */
export function evaluate(set: RelevanceSet, rank: (brief: string) => readonly string[], k = 10): Evaluation {
  if (set.length === 0) throw new RangeError('evaluate needs at least one brief');
  const perBrief = set.map(({ brief, relevant }) => {
    const ranked = rank(brief);
    return {
      brief,
      rr: reciprocalRank(ranked, relevant, k),
      ndcg: ndcgAt(ranked, relevant, k),
      top: ranked.slice(0, k),
    };
  });
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { mrr: mean(perBrief.map((score) => score.rr)), ndcg: mean(perBrief.map((score) => score.ndcg)), perBrief };
}
