import { AgentError } from '../../../protocol/errors.ts';
import type { CreativeManifest } from '../../creative/manifest.ts';
import { manifestProblems, type Format } from '../../formats/index.ts';
import type { CreativeAsset } from './creative.ts';

/**
 * What is wrong with a creative against this seller's formats, each problem a typed error at its
 * field: a format_id that is not one of the formats (VALIDATION_ERROR at `format_id`), and each way
 * its assets fall short of the format's (`manifestProblems`: a required asset missing, VALIDATION_ERROR
 * at `assets.<asset_id>`; given as another asset type, at `assets.<asset_id>.asset_type`; breaking
 * the format's requirements, at the property at fault). Empty when the creative can be stored.
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
  const assets = creative.assets as CreativeManifest['assets'];
  return manifestProblems(format, { assets }).map(({ asset_id, field, message }) => {
    const declared = format.assets?.find((a) => a.item_type === 'individual' && a.asset_id === asset_id);
    const asset_type = declared?.item_type === 'individual' ? declared.asset_type : undefined;
    return new AgentError('VALIDATION_ERROR', message, {
      field: `${at}${field.slice('creative_manifest'.length)}`,
      details: { asset_id, ...(asset_type === undefined ? {} : { asset_type }) },
    });
  });
}
