import { ApError } from '../../../protocol/errors.ts';
import type { AuthorizationIndex } from '../authorization-index.ts';
import type { IndexSource } from '../index-source.ts';

/** The index, once it has caught up with the feed; before that, lookups answer 503 rather than guess. */
export function liveIndex(follower: IndexSource): AuthorizationIndex {
  if (!follower.live)
    throw new ApError('service_unavailable', 'The authorization index is still loading; retry shortly.');
  return follower.index;
}
