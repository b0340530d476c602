import { creativeAssetSummary, type CreativeAsset } from './creative.ts';
import { refusal, type Result } from './stage-creatives.ts';

/** sync_creatives' input properties both libraries take (the published request schema is checked besides); `account` says whose library. */
export const syncCreativesProperties = (accountDescription: string) =>
  ({
    account: { type: 'object', description: accountDescription },
    creatives: { type: 'array', minItems: 1, maxItems: 100, items: creativeAssetSummary },
    creative_ids: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: { type: 'string' },
      description: 'Only these of creatives[] are synced.',
    },
    validation_mode: { type: 'string', enum: ['strict', 'lenient'] },
    dry_run: { type: 'boolean' },
  }) as const;

/** The creatives a sync uploads, each with where it is in the request: creatives[], only those `creative_ids` names when given. */
export function sentCreatives(args: Record<string, unknown>): Array<{ creative: CreativeAsset; at: string }> {
  const scope = args['creative_ids'] as string[] | undefined;
  return (args['creatives'] as CreativeAsset[])
    .map((creative, i) => ({ creative, at: `creatives[${i}]` }))
    .filter(({ creative }) => !scope || scope.includes(creative.creative_id));
}

/** In strict mode (the schema's default), the whole sync refused over its failed creatives (`refusal`); lenient mode answers them per creative. */
export function refuseIfStrict(
  args: Record<string, unknown>,
  answer: readonly Result[],
  failed: readonly Result[],
): void {
  if (failed.length > 0 && args['validation_mode'] !== 'lenient') {
    throw refusal(
      failed,
      answer.length,
      'Fix them and sync again, or pass validation_mode: "lenient" to store the valid ones.',
    );
  }
}
