import type { Queryable } from '../../db/database.ts';
import { appendEvent, feedEvent, type SnapshotSection } from '../feed/index.ts';

/**
 * What resolve answers for an entry's domain, as the feed's `resolution.*` events and the snapshot's
 * `resolution` section carry it: a mirror holds these and answers resolve and bulk resolve itself.
 * `aliases` are the other domains that resolve to a brand (those its house declares), each unless
 * a brand of its own has that domain.
 */
export interface ResolutionChange {
  kind: 'brand' | 'property';
  /** The entry's id, the event's entity_id. */
  id: string;
  domain: string;
  resolution: unknown;
  aliases?: string[];
}

/** Tells the feed that what resolve answers for the entry's domain changed; call it in the write's transaction. */
export async function announceResolution(tx: Queryable, change: ResolutionChange, actor: string): Promise<void> {
  await appendEvent(tx, feedEvent(`resolution.${change.kind}_updated`, change.id, actor, payloadOf(change)));
}

/** A snapshot section of every entry of a kind, in id order, each as its `resolution.*` event carries it. */
export function resolutionSnapshot(
  page: (db: Queryable, after: string | undefined, limit: number) => Promise<ResolutionChange[]>,
): SnapshotSection {
  return {
    entityType: 'resolution',
    async page(db, after, limit) {
      const changes = await page(db, after, limit);
      return changes.map((c) => ({ key: c.id, entity_type: 'resolution', entity_id: c.id, data: payloadOf(c) }));
    },
  };
}

function payloadOf({ kind, domain, resolution, aliases }: ResolutionChange): Record<string, unknown> {
  return { kind, domain, ...(aliases === undefined ? {} : { aliases }), resolution };
}
