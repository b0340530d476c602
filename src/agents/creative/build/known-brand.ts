import type { Queryable } from '../../../db/database.ts';
import type { BrandIdentity } from '../../../protocol/brand-identity.ts';

/** A brand as the registry of this deployment knows it, which a build draws from. */
export type KnownBrand = BrandIdentity;

/** Looks a brand up by its domain: the composition root hands the registry's lookup to the creative agents. */
export type BrandLookup = (db: Queryable, domain: string) => Promise<KnownBrand | undefined>;

/** The domain of a request's `brand` reference (core/brand-ref.json), when it names one. */
export function brandDomainOf(ref: unknown): string | undefined {
  const domain = typeof ref === 'object' && ref !== null ? (ref as { domain?: unknown }).domain : undefined;
  return typeof domain === 'string' && domain.trim() !== '' ? domain.trim().toLowerCase() : undefined;
}
