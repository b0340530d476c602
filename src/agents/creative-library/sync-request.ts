import { publishedSchemas, type AgentTask } from '../runtime/index.ts';
import { creativeAssetSummary, type CreativeAsset } from './creative.ts';
import { refusal, type Result } from './stage-creatives.ts';

/**
 * `sync_creatives` (creative/sync-creatives-request.json) as both libraries declare it, all but its
 * handler: the input properties both take (the published request schema is checked besides),
 * `account` saying whose library, and the agent's own beside them.
 */
export function syncCreativesDeclaration(
  description: string,
  accountDescription: string,
  ownProperties: Record<string, unknown>,
): Omit<AgentTask, 'handler'> {
  return {
    name: 'sync_creatives',
    description,
    input: {
      type: 'object',
      properties: {
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
        ...ownProperties,
      },
      required: ['account', 'creatives'],
      additionalProperties: true,
    },
    ...publishedSchemas('creative/sync-creatives'),
    mutates: true,
  };
}

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
