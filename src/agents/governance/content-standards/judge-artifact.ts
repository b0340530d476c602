import { contentOf, saysAnything, type Artifact, type ArtifactContent } from './artifact-content.ts';
import { evaluate, type Evaluation, type Placement } from './evaluate.ts';
import type { ReadPage } from './pages.ts';
import type { Rule } from './rules.ts';
import { exemplarVerdict, type StandardsDefinition } from './standard.ts';

/** How many pages one call may still read (shared by the artifacts of one call). */
export interface PageBudget {
  left: number;
}

/**
 * One artifact against one standard: a calibration exemplar the standard names decides at once
 * (the buyer said so); otherwise the artifact's own content is evaluated, or, when it says
 * nothing and names a page, what that page says, read through the SSRF-safe client.
 */
export async function judgeArtifact(
  standard: StandardsDefinition,
  rules: readonly Rule[],
  artifact: Artifact,
  placement: Placement,
  pages: ReadPage | undefined,
  budget: PageBudget,
  only?: ReadonlySet<string>,
): Promise<Evaluation> {
  const exemplar = exemplarVerdict(standard, artifact);
  if (exemplar) {
    const explanation = `The standard's calibration exemplars name ${exemplar.exemplar} as ${exemplar.verdict === 'pass' ? 'passing' : 'failing'}.`;
    return {
      verdict: exemplar.verdict,
      explanation,
      features: [
        {
          feature_id: 'calibration',
          status: exemplar.verdict === 'pass' ? 'passed' : 'failed',
          policy_id: 'calibration_exemplars',
          explanation,
        },
      ],
    };
  }
  let content: ArtifactContent = contentOf(artifact);
  if (!saysAnything(content) && artifact.url !== undefined) {
    if (!pages || budget.left <= 0) {
      const why = pages ? 'more pages than one call reads' : 'this agent reads no pages';
      return evaluate(rules, standard.scope, content, placement, only, `Its page was not read (${why}).`);
    }
    budget.left--;
    const reading = await pages(artifact.url);
    if ('failed' in reading)
      return evaluate(rules, standard.scope, content, placement, only, `Its page: ${reading.failed}.`);
    content = reading.content;
  }
  return evaluate(rules, standard.scope, content, placement, only);
}
