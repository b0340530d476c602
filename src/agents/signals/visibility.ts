import type { Principal } from '../../auth/index.ts';
import type { CatalogSignal } from './catalog/index.ts';

/**
 * The name the catalog knows a caller by (a custom signal's `principals`, an owned one's
 * `owner`): its organization's slug, else the name of the configured credential it used (the
 * test deployment's public credential is `public-test`). Undefined for a caller with neither.
 */
export function principalAccount(principal: Principal): string | undefined {
  if (principal.organization) return principal.organization.slug;
  return principal.kind === 'credential' ? principal.subject.slice(principal.subject.indexOf('/') + 1) : undefined;
}

/** Whether the caller may see (and activate) the signal: marketplace signals are everyone's. */
export function visibleTo(signal: CatalogSignal, account: string | undefined): boolean {
  if (signal.signal_type === 'marketplace') return true;
  if (account === undefined) return false;
  return signal.signal_type === 'custom' ? signal.principals.includes(account) : signal.owner === account;
}
