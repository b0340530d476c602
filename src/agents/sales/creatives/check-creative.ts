import { AgentError } from '../../../protocol/errors.ts';
import type { Format } from '../../formats/index.ts';
import type { CreativeAsset } from './creative.ts';

/**
 * What is wrong with a creative against this seller's formats, each problem a typed error at its
 * field: a format_id that is not one of the formats (VALIDATION_ERROR at `format_id`), and each
 * required asset of the format it misses or gives as another asset type (VALIDATION_ERROR at
 * `assets.<asset_id>`). Empty when the creative can be stored.
 */
export function creativeProblems(creative: CreativeAsset, formats: readonly Format[], at: string): AgentError[] {
  const { agent_url, id } = creative.format_id;
  const format = formats.find((f) => f.format_id.agent_url === agent_url && f.format_id.id === id);
  if (!format) {
    return [
      new AgentError('VALIDATION_ERROR', `Format ${id} of ${agent_url} is not one this seller takes.`, {
        field: `${at}.format_id`,
        details: { format_id: creative.format_id },
        suggestion: 'list_creative_formats lists the formats, with the agent_url to name them by.',
      }),
    ];
  }
  const problems: AgentError[] = [];
  for (const asset of format.assets ?? []) {
    if (asset.item_type !== 'individual' || !asset.required) continue;
    const given = creative.assets[asset.asset_id] as { asset_type?: unknown } | undefined;
    if (given === undefined) {
      problems.push(new AgentError('VALIDATION_ERROR', `Format ${id} requires the ${asset.asset_type} asset ${asset.asset_id}.`, { field: `${at}.assets.${asset.asset_id}`, details: { asset_id: asset.asset_id, asset_type: asset.asset_type } }));
    } else if (given.asset_type !== asset.asset_type) {
      problems.push(
        new AgentError('VALIDATION_ERROR', `Asset ${asset.asset_id} of format ${id} is a ${asset.asset_type}, not a ${String(given.asset_type)}.`, { field: `${at}.assets.${asset.asset_id}.asset_type`, details: { asset_id: asset.asset_id, asset_type: asset.asset_type } }),
      );
    }
  }
  return problems;
}
