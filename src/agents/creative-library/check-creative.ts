import { AgentError } from '../../protocol/errors.ts';
import type { CreativeManifest } from '../formats/index.ts';
import { manifestProblems, type Format, type FormatId } from '../formats/index.ts';
import type { CreativeAsset } from './creative.ts';

/**
 * The formats a library takes creatives of: how a creative's `format_id` finds one, and the error
 * for one that names none (each agent words and codes it its own way).
 */
export interface FormatBook {
  find(formatId: FormatId): Format | undefined;
  unknown(formatId: FormatId, field: string): AgentError;
}

/**
 * What is wrong with a creative against the library's formats, each problem a typed error at its
 * field: a format_id naming none of them (the book's `unknown`, at `format_id`), and each way its
 * assets fall short of the format's (`manifestProblems`: a required asset missing, VALIDATION_ERROR
 * at `assets.<asset_id>`; given as another asset type, at `assets.<asset_id>.asset_type`; breaking
 * the format's requirements, at the property at fault). Empty when the creative can be stored.
 */
export function creativeProblems(creative: CreativeAsset, formats: FormatBook, at: string): AgentError[] {
  const format = formats.find(creative.format_id);
  if (!format) return [formats.unknown(creative.format_id, `${at}.format_id`)];
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
