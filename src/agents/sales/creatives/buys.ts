import type { Queryable } from '../../../db/database.ts';
import type { FormatId } from '../../formats/index.ts';
import type { Product } from '../catalog/index.ts';

/*
 * The library and media buys meet here, and depend one way: media buys use the library (these
 * types, `libraryForBuys`, the assignments of their packages); what the library needs of media
 * buys (packages it may assign to, recording an assignment in a buy) the composition hands it as
 * `BuysDesk`, so nothing here imports media buys.
 */

/** core/creative-assignment.json: a library creative to run in a package. */
export interface CreativeAssignment {
  creative_id: string;
  weight?: number;
  placement_ids?: string[];
}

/** A creative assigned to a package, as core/package.json's creative_assignments answers it. */
export interface PackageAssignmentRow {
  package_id: string;
  creative_id: string;
  weight: number | null;
  placement_ids: string[] | null;
}

/** core/creative-assignment.json of a stored assignment. */
export function toAssignment(a: PackageAssignmentRow): CreativeAssignment {
  return {
    creative_id: a.creative_id,
    ...(a.weight === null ? {} : { weight: a.weight }),
    ...(a.placement_ids === null ? {} : { placement_ids: a.placement_ids }),
  };
}

/** What one call gives a package of creatives: library creatives by id, creatives uploaded with the call, or both. */
export interface PackageCreatives {
  package_id: string;
  /** The formats the package takes. */
  formats: readonly FormatId[];
  /** Where in the request the package is (`packages[0]`, `new_packages[1]`), for errors. */
  at: string;
  /** creative_assignments: the package's whole list from now on (replacement, as package-update.json says); absent leaves it as it is. */
  assignments?: readonly CreativeAssignment[];
  /** creatives (core/creative-asset.json): uploaded into the account's library, then assigned besides the others. */
  creatives?: ReadonlyArray<Record<string, unknown>>;
}

/** What became of one package's assignments: creative ids newly assigned, unassigned, and kept with another weight or placements. */
export interface CreativesChange {
  package_id: string;
  assigned: string[];
  unassigned: string[];
  reweighted: string[];
}

/** The library a call writes to: the caller's, on one account. */
export interface LibraryOwner {
  owner: string;
  accountId: string;
  sandbox: boolean;
}

/** The creative library as media buys use it, working in the call's transaction. */
export interface CreativeLibrary {
  /**
   * Serializes with the account's other library writes (sync_creatives). A call that locks a buy
   * takes this first, in the order sync_creatives takes them, so the two never deadlock.
   */
  lock(db: Queryable, accountId: string): Promise<void>;
  /**
   * Uploads and assigns each package's creatives: inline creatives checked as sync_creatives
   * checks them (refused whole with VALIDATION_ERROR, per creative in details.creatives), library
   * creatives the account's (CREATIVE_NOT_FOUND) and each of a format its package takes
   * (VALIDATION_ERROR). A typed AgentError at the first problem; the caller's transaction then
   * writes nothing.
   */
  assign(
    db: Queryable,
    library: LibraryOwner,
    packages: readonly PackageCreatives[],
    now: Date,
  ): Promise<CreativesChange[]>;
}

/** A package of the caller's buys as the creative library sees it: which formats it takes, and why it takes none. */
export interface AssignablePackage {
  package_id: string;
  media_buy_id: string;
  /** The package's own format_ids when it named some, else its product's. */
  formats: readonly FormatId[];
  /** Why no creative may be assigned to it now (its buy finished, the package canceled); undefined when it may. */
  closed?: string;
}

export interface CreativesAssigned {
  owner: string;
  mediaBuyId: string;
  /** The creatives newly assigned, by package. */
  byPackage: ReadonlyMap<string, readonly string[]>;
  actor: string;
  now: Date;
}

/** What sync_creatives needs of media buys to assign creatives to packages, handed over by the composition. */
export interface BuysDesk {
  /** The packages among `packageIds` of the owner's buys on this account; an id not among them is not the caller's (or does not exist). */
  assignablePackages(
    db: Queryable,
    owner: string,
    accountId: string,
    packageIds: readonly string[],
    products: readonly Product[],
  ): Promise<AssignablePackage[]>;
  /** Records creatives newly assigned to packages of one buy, as one change of the buy (it may move out of pending_creatives). */
  recordCreativesAssigned(tx: Queryable, change: CreativesAssigned): Promise<unknown>;
}
