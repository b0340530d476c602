/**
 * What the creative libraries share (the sales agent's, tied to its accounts and media buys, and
 * the creative agent's own): the creative as a library keeps it, the check of an upload against
 * the library's formats (stageCreatives, the one check of every upload path), and list_creatives'
 * request, filters, order and answer. Each agent keeps its own table and keys.
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
export { refusal, stageCreatives, type Result, type Staged, type Uploader } from './stage-creatives.ts';
export {
  listAnswer,
  listCreativesInput,
  listedCreative,
  pageOf,
  readListRequest,
  wantsAssignments,
  type CreativeFilters,
  type ListRequest,
} from './list.ts';
export {
  countLibrary,
  creativeSortFields,
  creativesByIds,
  libraryConditions,
  listLibrary,
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
