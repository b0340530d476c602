import { AgentError } from '../../../protocol/errors.ts';
import { manifestProblems, type CreativeManifest, type Format } from '../../formats/index.ts';
import type { BuildPlan } from './build-format.ts';
import { composeCopy } from './copy.ts';
import { readInstructions, type Instructions } from './instructions.ts';
import { brandShadeOf, normalHex, paletteOf, type BrandColors } from './palette.ts';
import { readPromoted } from './promoted.ts';
import { hasContent, readSource } from './source.ts';

export interface PlanInput {
  manifest: CreativeManifest;
  /** The manifest's own format, when it is one of this agent's. */
  sourceFormat: Format | undefined;
  message?: string | undefined;
  brandRef?: unknown;
  macroValues?: Record<string, string> | undefined;
}

/**
 * What every target of a build is made from. A manifest that promotes offerings is generated from
 * them (its own assets, a given spot or picture, still used); one that does not is a creative to
 * transform, which must meet its own format when it is one of this agent's, as preview_creative
 * requires, and must hold something to carry over.
 */
export function planBuild({ manifest, sourceFormat, message, brandRef, macroValues }: PlanInput): BuildPlan {
  const promoted = readPromoted(manifest, brandRef);
  const source = readSource(manifest, sourceFormat);
  if (!promoted) {
    const problems = sourceFormat ? manifestProblems(sourceFormat, manifest) : [];
    if (problems.length > 0) {
      throw new AgentError('VALIDATION_ERROR', `The manifest to transform does not meet ${sourceFormat!.name}'s asset requirements: ${problems.map((p) => p.message).join(' ')}`, {
        field: problems[0]!.field,
        details: { assets: problems },
        suggestion: 'Send the complete creative to transform, or promote offerings (assets.promoted_offerings) to generate one.',
      });
    }
    if (!hasContent(source)) {
      throw new AgentError('VALIDATION_ERROR', 'The manifest has nothing to build from: neither promoted offerings (assets.promoted_offerings with brand_manifest and inline_offerings) nor the assets of a creative to transform.', {
        field: 'creative_manifest.assets',
        details: { assets: [{ asset_id: 'promoted_offerings', field: 'creative_manifest.assets.promoted_offerings', message: 'Promote offerings to generate a creative, or give the assets of one to transform.' }] },
      });
    }
  }
  const instructions = readInstructions(message);
  const colors = promoted?.brand.colors ?? {};
  const offering = promoted?.offerings[0];
  return {
    copy: composeCopy(source.copy, promoted, instructions),
    palette: paletteOf(colors, emphasised(instructions, colors)),
    source,
    promoted,
    click: source.click ?? offering?.landing_url ?? offering?.checkout_url ?? promoted?.brand.url,
    impression: source.impression,
    macroValues: macroValues ?? {},
  };
}

/** The colour the message asks to emphasise, in this brand's terms; a role the brand has no colour for asks nothing. */
function emphasised(instructions: Instructions, colors: BrandColors): string | undefined {
  const emphasis = instructions.emphasis;
  if (!emphasis) return undefined;
  if ('role' in emphasis) return colors[emphasis.role];
  if ('hex' in emphasis) return normalHex(emphasis.hex);
  return brandShadeOf(emphasis.name, colors);
}
