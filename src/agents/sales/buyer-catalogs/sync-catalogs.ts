import canonicalize from 'canonicalize';
import { AgentError } from '../../../protocol/errors.ts';
import { objectsInput, accountRefInput, errorObject, publishedSchemas, type AgentTask } from '../../runtime/index.ts';
import { requireActiveAccount } from '../accounts/index.ts';
import { itemId, itemProblem, type BuyerCatalog } from './items.ts';
import * as sql from './sql.ts';

/** Items one catalog may carry inline: enough for a shop's feed, bounded so one call's work is. */
export const maxItemsPerCatalog = 10_000;

interface Outcome {
  catalog_id: string;
  action: 'created' | 'updated' | 'unchanged' | 'failed' | 'deleted';
  item_count?: number;
  items_approved?: number;
  items_rejected?: number;
  item_issues?: { item_id: string; status: 'rejected'; reasons: string[] }[];
  changes?: string[];
  errors?: unknown[];
  last_synced_at?: string;
}

/**
 * `sync_catalogs` (media-buy/sync-catalogs-request.json; sales-catalog-driven): upserts the
 * account's catalogs by catalog_id, answering per catalog what was done. A catalog carries its
 * items inline (this seller fetches no feed url: UNSUPPORTED_FEATURE); each item needs its
 * type's id and, for a vertical type, must meet that type's published item schema. In `strict`
 * mode (the default) any problem fails the whole sync, naming it; in `lenient` mode a catalog
 * with a problem of its own is `failed` and a bad item is rejected (item_issues) while the rest
 * are kept. Without `catalogs` the call only lists the account's catalogs; `catalog_ids` limits
 * which of the sent catalogs are synced; `delete_missing` deletes the account's catalogs not
 * sent; `dry_run` answers the same and writes nothing. Kept per account for get_products'
 * `catalog`.
 */
export function syncCatalogsTask(): AgentTask {
  return {
    name: 'sync_catalogs',
    description:
      'Sync your catalogs (core/catalog.json: catalog_id, type, inline items) to an account, upsert by catalog_id; get_products then matches them ({catalog: {catalog_id, type}} or inline items) against the products that take their type. Without catalogs: lists the account’s catalogs. catalog_ids limits the sync, delete_missing removes the others, dry_run previews, validation_mode "lenient" keeps the good items of a catalog with bad ones.',
    input: {
      type: 'object',
      properties: {
        account: accountRefInput,
        catalogs: objectsInput(
          50,
          {
            catalog_id: { type: 'string' },
            type: { type: 'string', description: 'enums/catalog-type.json: product, offering, store, job, hotel...' },
            name: { type: 'string' },
            items: { type: 'array', minItems: 1, maxItems: maxItemsPerCatalog, items: { type: 'object' } },
          },
          ['catalog_id', 'type'],
        ),
        catalog_ids: { type: 'array', items: { type: 'string' } },
        delete_missing: { type: 'boolean' },
        dry_run: { type: 'boolean' },
        validation_mode: { type: 'string', enum: ['strict', 'lenient'] },
      },
      required: ['account'],
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/sync-catalogs'),
    mutates: true,
    async handler(args, ctx) {
      const account = requireActiveAccount(ctx.account);
      const sandbox = account['sandbox'] === true;
      const now = ctx.clock.now();
      const existing = new Map((await sql.catalogsOf(ctx.db, account.account_id)).map((r) => [r.catalog_id, r]));
      const sent = args['catalogs'] as BuyerCatalog[] | undefined;
      if (!sent) {
        const catalogs = [...existing.values()].map((r): Outcome => ({
          catalog_id: r.catalog_id,
          action: 'unchanged',
          item_count: r.item_count,
          last_synced_at: r.updated_at.toISOString(),
        }));
        return { catalogs, sandbox };
      }
      const lenient = args['validation_mode'] === 'lenient';
      const dryRun = args['dry_run'] === true;
      const only = args['catalog_ids'] ? new Set(args['catalog_ids'] as string[]) : undefined;
      const seen = new Set<string>();
      const outcomes: Outcome[] = [];
      const writes: sql.CatalogRow[] = [];

      for (const [i, catalog] of sent.entries()) {
        const at = `catalogs[${i}]`;
        const problem = catalogProblem(catalog, seen, at);
        const id = catalog.catalog_id ?? `(catalogs[${i}])`;
        if (catalog.catalog_id) seen.add(catalog.catalog_id);
        if (only && !only.has(id)) continue;
        if (problem) {
          if (!lenient) throw problem;
          outcomes.push({ catalog_id: id, action: 'failed', errors: [errorObject(problem)] });
          continue;
        }
        const issues: NonNullable<Outcome['item_issues']> = [];
        const kept = (catalog.items ?? []).filter((item, j) => {
          const why = itemProblem(catalog.type, item);
          if (!why) return true;
          if (!lenient)
            throw new AgentError('VALIDATION_ERROR', `${at}.items[${j}]: ${why}`, { field: `${at}.items[${j}]` });
          issues.push({ item_id: itemId(catalog.type, item) ?? `items[${j}]`, status: 'rejected', reasons: [why] });
          return false;
        });
        const stored: BuyerCatalog = { ...catalog, items: kept };
        const before = existing.get(id);
        const changes = before ? changedFields(before.catalog, stored) : [];
        const action = !before ? 'created' : changes.length === 0 ? 'unchanged' : 'updated';
        if (action !== 'unchanged')
          writes.push({
            account_id: account.account_id,
            catalog_id: id,
            type: catalog.type,
            catalog: stored,
            item_count: kept.length,
            created_at: before?.created_at ?? now,
            updated_at: now,
          });
        outcomes.push({
          catalog_id: id,
          action,
          item_count: kept.length,
          items_approved: kept.length,
          ...(issues.length > 0 ? { items_rejected: issues.length, item_issues: issues } : {}),
          ...(action === 'updated' ? { changes } : {}),
          last_synced_at: (action === 'unchanged' ? before!.updated_at : now).toISOString(),
        });
      }
      const deleted = args['delete_missing'] === true ? [...existing.keys()].filter((id) => !seen.has(id)) : [];
      for (const id of deleted) outcomes.push({ catalog_id: id, action: 'deleted' });
      if (!dryRun) {
        for (const row of writes) await sql.upsertCatalog(ctx.db, row);
        for (const id of deleted) await sql.deleteCatalog(ctx.db, account.account_id, id);
      }
      return { ...(dryRun ? { dry_run: true } : {}), catalogs: outcomes, sandbox };
    },
  };
}

/** What makes a sent catalog unusable as a whole; undefined when it can be synced. */
function catalogProblem(catalog: BuyerCatalog, seen: ReadonlySet<string>, at: string): AgentError | undefined {
  if (!catalog.catalog_id)
    return new AgentError('INVALID_REQUEST', `${at} needs a catalog_id to be synced.`, { field: `${at}.catalog_id` });
  if (seen.has(catalog.catalog_id))
    return new AgentError(
      'INVALID_REQUEST',
      `${at} repeats catalog_id ${catalog.catalog_id}; send each catalog once.`,
      { field: `${at}.catalog_id` },
    );
  if (catalog.url !== undefined && catalog.items === undefined) {
    return new AgentError('UNSUPPORTED_FEATURE', `${at}: this seller fetches no catalog feed; send the items inline.`, {
      field: `${at}.url`,
    });
  }
  if (!catalog.items)
    return new AgentError('INVALID_REQUEST', `${at} has no items; send them inline.`, { field: `${at}.items` });
  if (catalog.items.length > maxItemsPerCatalog) {
    return new AgentError(
      'INVALID_REQUEST',
      `${at} has ${catalog.items.length} items; this seller takes at most ${maxItemsPerCatalog} per catalog.`,
      { field: `${at}.items` },
    );
  }
  return undefined;
}

/** The top-level fields of a catalog that a sync changes. */
function changedFields(before: BuyerCatalog, after: BuyerCatalog): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => canonicalize(before[k]) !== canonicalize(after[k])).sort();
}
