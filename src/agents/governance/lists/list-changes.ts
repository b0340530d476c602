import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import { enqueueWebhookEvent, type TenantPass } from '../../runtime/index.ts';
import type { TokenKeys } from '../tokens/token-keys.ts';
import type { ListKind } from './kind.ts';
import * as sql from './sql.ts';

/** Lists looked at per page of a pass: every list with a webhook is looked at each pass, a page at a time. */
const pageSize = 200;

/**
 * Announces a list whose members changed (the registry moved under it, or its owner changed it)
 * to its `webhook_url` (property/property-list-changed-webhook.json,
 * collection/collection-list-changed-webhook.json), once whichever
 * instance notices first: each pass resolves every list that has a webhook from the index in
 * memory and records what it resolved to; the record that changes it queues the webhook in the
 * same transaction. The first look at a list only records it. The body's `signature` is a
 * detached compact JWS over its RFC 8785 form without that field, made with the governance key.
 */
export function listChangesPass(
  tenant: string,
  kinds: readonly ListKind[],
  authorization: () => AuthorizationIndex,
  keys: TokenKeys,
  intervalMs: number,
): TenantPass {
  // What each list was last looked at against (the index's version, the list's revision): a list
  // neither moved under nor changed since is not resolved again, so a quiet pass costs one query.
  let lookedAt = new Map<string, string>();
  return {
    name: 'list-changes',
    intervalMs,
    async run({ db, clock, webhooksQueued }) {
      const index = authorization();
      // Lists gone since the last pass drop out of `lookedAt` with it.
      const seen = new Map<string, string>();
      for (let after = 0; ;) {
        const lists = await sql.listsWithWebhooks(db, after, pageSize);
        if (lists.length === 0) {
          lookedAt = seen;
          return;
        }
        after = lists.at(-1)!.seq;
        for (const list of lists) {
          const state = `${index.version}:${list.updated_at.toISOString()}:${list.members_hash ?? ''}`;
          if (lookedAt.get(list.list_id) === state) {
            seen.set(list.list_id, state);
            continue;
          }
          const kind = kinds.find((k) => k.noun === list.kind);
          if (!kind) continue;
          const { count, items } = kind.resolve(index, list.definition);
          const hash = createHash('sha256').update(items.map(kind.itemKey).join('\n')).digest('base64url');
          const now = clock.now();
          const queued = await db.transaction(async (tx) => {
            const change = await sql.recordMembers(tx, list.list_id, hash, count);
            if (!change || change.before === null) return false;
            const body = {
              idempotency_key: randomUUID(),
              event: `${kind.noun}_list_changed`,
              list_id: list.list_id,
              list_name: list.name,
              change_summary: { [`total_${kind.members}`]: count },
              resolved_at: now.toISOString(),
              cache_valid_until: new Date(now.getTime() + kind.cacheHours * 3_600_000).toISOString(),
            };
            const signature = await keys.signDetached(tx, new TextEncoder().encode(canonicalize(body)));
            await enqueueWebhookEvent(
              tx,
              { tenant, url: list.webhook_url!, payload: { ...body, signature }, idempotencyKey: body.idempotency_key },
              now,
            );
            return true;
          });
          if (queued) webhooksQueued();
          seen.set(list.list_id, `${index.version}:${list.updated_at.toISOString()}:${hash}`);
        }
      }
    },
  };
}
