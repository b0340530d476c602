/**
 * The one creative library both agents' sync_creatives and list_creatives run on (the sales
 * agent's, tied to its accounts and packages, and the creative agent's own): the creative as a
 * library keeps it, its SQL over the agent's table (sql.ts), the check of an upload against the
 * library's formats (stageCreatives, the one check of every upload path), sync_creatives'
 * declaration and shared request, and list_creatives itself (its request, filters, order and
 * answer). Each agent keeps its own table and keys, and passes in what differs (its formats, review
 * status, conditions, assignments, handler).
 */
export {
  creativeAssetSummary,
  creativeStatuses,
  inputSetSummary,
  detailsOf,
  formatKey,
  type CreativeAsset,
  type CreativeStatus,
  type LibraryCreative,
} from './creative.ts';
export { creativeProblems, type FormatBook } from './check-creative.ts';
export { refuseIfStrict, sentCreatives, syncCreativesDeclaration } from './sync-request.ts';
export { refusal, stageCreatives, type Result, type Staged, type Uploader } from './stage-creatives.ts';
export {
  listCreativesTask,
  wantsAssignments,
  type CreativeFilters,
  type ListRequest,
  type ListSource,
} from './list.ts';
export {
  creativeSortFields,
  creativesByIds,
  libraryConditions,
  listing,
  lockLibrary,
  orderBy,
  Params,
  unarchived,
  upsertCreative,
  type LibraryFilters,
  type LibraryQuery,
  type LibraryTable,
  type Sort,
  type SortField,
} from './sql.ts';
