import { AgentError } from '../../../protocol/errors.ts';
import { manifestProblems, type CreativeManifest, type Format } from '../../formats/index.ts';
import type { BuildPlan } from './build-format.ts';
import { composeCopy } from './copy.ts';
import { readInstructions, type Instructions } from './instructions.ts';
import { brandShadeOf, normalHex, paletteOf, type BrandColors } from './palette.ts';
import type { KnownBrand } from './known-brand.ts';
import { promotedByBrief, readPromoted } from './promoted.ts';
import { hasContent, readSource } from './source.ts';

export interface PlanInput {
  /** What to build from; none for a brief alone (`message`, with the `brand` referenced). */
  manifest: CreativeManifest | undefined;
  /** The manifest's own format, when it is one of this agent's. */
  sourceFormat: Format | undefined;
  message?: string | undefined;
  brandRef?: unknown;
  /** The referenced brand as the registry knows it. */
  knownBrand?: KnownBrand | undefined;
  macroValues?: Record<string, string> | undefined;
}

/**
 * What every target of a build is made from. A manifest that promotes offerings is generated from
 * them (its own assets, a given spot or picture, still used); no manifest at all is generated
 * from the brief and the referenced brand (`promotedByBrief`); a manifest that promotes nothing is
 * a creative to transform, which must meet its own format when it is one of this agent's, as preview_creative
 * requires, and must hold something to carry over.
 */
export function planBuild({
  manifest,
  sourceFormat,
  message,
  brandRef,
  knownBrand,
  macroValues,
}: PlanInput): BuildPlan {
  const promoted = manifest
    ? readPromoted(manifest, brandRef, knownBrand)
    : promotedByBrief(message, brandRef, knownBrand);
  const source = readSource(manifest, sourceFormat);
  if (!manifest && !promoted) {
    throw new AgentError(
      'VALIDATION_ERROR',
      'The brief names nothing to promote: say what the creative is for ("a banner promoting our winter sale"), reference the brand (brand.domain), or send a creative_manifest.',
      {
        field: 'message',
        suggestion:
          'Reference the brand with brand: {domain}, or send creative_manifest.assets.promoted_offerings with the brand and its offerings.',
      },
    );
  }
  if (manifest && !promoted) {
    const problems = sourceFormat ? manifestProblems(sourceFormat, manifest) : [];
    if (problems.length > 0) {
      throw new AgentError(
        'VALIDATION_ERROR',
        `The manifest to transform does not meet ${sourceFormat!.name}'s asset requirements: ${problems.map((p) => p.message).join(' ')}`,
        {
          field: problems[0]!.field,
          details: { assets: problems },
          suggestion:
            'Send the complete creative to transform, or promote offerings (assets.promoted_offerings) to generate one.',
        },
      );
    }
    if (!hasContent(source)) {
      throw new AgentError(
        'VALIDATION_ERROR',
        'The manifest has nothing to build from: neither promoted offerings (assets.promoted_offerings with brand_manifest and inline_offerings) nor the assets of a creative to transform.',
        {
          field: 'creative_manifest.assets',
          details: {
            assets: [
              {
                asset_id: 'promoted_offerings',
                field: 'creative_manifest.assets.promoted_offerings',
                message: 'Promote offerings to generate a creative, or give the assets of one to transform.',
              },
            ],
          },
        },
      );
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
