import type { Queryable } from '../../db/database.ts';
import { matchDenyList, type DenyList } from './deny-list.ts';
import { domainSkeleton } from './skeleton.ts';
import * as sql from './sql.ts';
import type { ReviewReason } from './sql.ts';

export type HomographVerdict = { verdict: 'ok' } | { verdict: 'review'; reason: ReviewReason; similar_to: string };

const OK: HomographVerdict = { verdict: 'ok' };

/**
 * Whether a save of `asciiDomain` (normalized) may go ahead or must wait for an operator. Reads,
 * never writes. In order:
 *
 * 1. one of a deny-listed brand's own domains (or below one): ok;
 * 2. a domain an operator already approved: ok;
 * 3. a look-alike of a deny-listed brand: review (`deny_list`, similar_to the brand's name);
 * 4. a domain already registered (saving it again is no collision): ok;
 * 5. another registered brand or property domain with the same skeleton: review
 *    (`registered_brand` / `registered_property`, similar_to that domain);
 * 6. otherwise ok.
 */
export async function checkHomograph(
  db: Queryable,
  denyList: DenyList,
  asciiDomain: string,
): Promise<HomographVerdict> {
  const denied = matchDenyList(denyList, asciiDomain);
  if (denied?.own) return OK;
  const { registered, approved } = await sql.standing(db, asciiDomain);
  if (approved) return OK;
  if (denied) return { verdict: 'review', reason: 'deny_list', similar_to: denied.brand.name };
  if (registered) return OK;
  const [hit] = await sql.lookalikes(db, domainSkeleton(asciiDomain), asciiDomain);
  if (hit)
    return {
      verdict: 'review',
      reason: hit.kind === 'brand' ? 'registered_brand' : 'registered_property',
      similar_to: hit.domain,
    };
  return OK;
}
