/**
 * The standard creative formats and `list_creative_formats`, shared by the agents that answer it
 * (the sales agent for the formats its products take, the creative agent for all it defines), and
 * the check of a creative manifest against its format.
 */
export type { Asset, AssetGroup, Format, FormatId, FormatType, Render, WcagLevel } from './format.ts';
export { standardFormats, standardFormatsAt } from './standard/index.ts';
export { agentKey, findFormat, pathUnder, sameAgentUrl, sameFormatId } from './find-format.ts';
export { manifestProblems, type ManifestProblem } from './check-manifest.ts';
export type { CreativeManifest, ManifestAsset } from './manifest.ts';
export { filterFormats, type FormatFilters } from './filter.ts';
export {
  listCreativeFormatsTask,
  type CreativeAgent,
  type ListCreativeFormatsOptions,
} from './list-creative-formats.ts';
