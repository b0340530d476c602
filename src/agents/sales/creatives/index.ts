/**
 * The sales agent's creative library: sync_creatives (upserts checked against the standard
 * formats, review status, assignment to packages of the caller's media buys) and list_creatives,
 * over sales_creatives and sales_creative_assignments (sql.ts). A creative belongs to its
 * account and outlives the buys it was assigned to. The seller's own moves (a status it sets, a
 * creative it seeds) are recorded in the creative's history (sales_creative_changes). Media buys
 * depend on the library (buys.ts is their contract); it reaches media buys only through the
 * `BuysDesk` the composition passes to sync_creatives.
 */
export { listCreativesTask } from './list-creatives.ts';
export { syncCreativesTask, type CreativeLibraryOptions } from './sync-creatives.ts';
export { reviewStatus } from './creative.ts';
export { creativeStatuses, type CreativeStatus } from '../../creative-library/index.ts';
export { libraryForBuys, type BuysLibraryOptions } from './library-for-buys.ts';
export {
  toAssignment,
  type AssignablePackage,
  type BuysDesk,
  type CreativeAssignment,
  type CreativeLibrary,
  type CreativesAssigned,
  type CreativesChange,
  type LibraryOwner,
  type PackageAssignmentRow,
  type PackageCreatives,
} from './buys.ts';
export { assignmentsOfPackages } from './sql.ts';
export { creativeHistory, lockCreative, setCreativeStatus } from './seller-status.ts';
export { seedCreative, type CreativeSeed } from './seed-creative.ts';
