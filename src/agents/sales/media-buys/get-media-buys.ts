import {
  keysetList,
  pageRequestInput,
  publishedSchemas,
  type AgentTask,
  type PageRequest,
} from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import type { Product } from '../catalog/index.ts';
import type { Shelf } from '../offering.ts';
import { assignmentsOfPackages, type PackageAssignmentRow } from '../creatives/index.ts';
import { formatsOf } from './creative-assignments.ts';
import { buySummary, toPackage, totalBudget, type BuyRow, type PackageRow } from './media-buy.ts';
import { buySelection } from './schemas.ts';
import { missingBuys, selectedBuys } from './selection.ts';
import * as sql from './sql.ts';
import { isTerminal } from './state.ts';

/**
 * `get_media_buys` (media-buy/get-media-buys-request.json): the caller's own buys, of the account
 * when one is named, by id or by status (`active` when neither ids nor a status are given, as the
 * schema says), in the order they were made, with packages (and their creative assignments),
 * budgets, currency, status, valid_actions, creative deadline and, when asked, the latest history
 * entries. A package still to run with no creative assigned says which formats it waits for
 * (format_ids_pending: its own format_ids, else its product's), whatever the buy's status (a
 * resumed buy runs without creatives as well). An id the caller has no buy of is answered in
 * errors[] as MEDIA_BUY_NOT_FOUND, whoever's it is.
 */
export function getMediaBuysTask(shelf: Shelf): AgentTask {
  return {
    name: 'get_media_buys',
    description:
      'Read your media buys: by media_buy_ids, or by status_filter (a status or a list; "active" when neither is given), optionally of one account. Answers each buy with status, revision, valid_actions, currency, total_budget, flight, creative_deadline and packages; include_history: N adds the latest N changes (who, when, what). Paginated.',
    input: {
      type: 'object',
      properties: {
        ...buySelection,
        include_history: { type: 'integer', minimum: 0, maximum: 1000 },
        include_snapshot: { type: 'boolean' },
        pagination: pageRequestInput,
      },
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/get-media-buys'),
    mutates: false,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const filters = selectedBuys(args, ctx.account);
      const { page, pagination, whole } = await keysetList(
        'm',
        args['pagination'] as PageRequest | undefined,
        sql.buyList(ctx.db, owner, filters),
      );
      const buyIds = page.map((b) => b.media_buy_id);
      const rowsOfPackages = await sql.packagesOf(ctx.db, buyIds);
      const packages = groupBy(rowsOfPackages);
      const assigned = await assignmentsOfPackages(
        ctx.db,
        rowsOfPackages.map((p) => p.package_id),
      );
      const history = groupBy(
        await sql.historyOf(ctx.db, buyIds, (args['include_history'] as number | undefined) ?? 0),
      );
      const snapshot = args['include_snapshot'] === true;
      const { products } = await shelf(ctx.db, ctx.account);

      const media_buys = page.map((buy) => {
        const own = packages.get(buy.media_buy_id) ?? [];
        return {
          ...buySummary(buy),
          currency: buy.currency,
          total_budget: totalBudget(own),
          start_time: buy.start_time.toISOString(),
          end_time: buy.end_time.toISOString(),
          created_at: buy.confirmed_at.toISOString(),
          updated_at: buy.updated_at.toISOString(),
          packages: own.map((p) => ({
            ...toPackage(p, buy, assigned),
            currency: buy.currency,
            ...pendingFormats(p, buy, assigned, products),
            ...(snapshot ? { snapshot_unavailable_reason: 'SNAPSHOT_UNSUPPORTED' } : {}),
          })),
          ...(history.has(buy.media_buy_id)
            ? {
                history: history.get(buy.media_buy_id)!.map((e) => ({
                  revision: e.revision,
                  timestamp: e.at.toISOString(),
                  actor: e.actor,
                  action: e.action,
                  summary: e.summary,
                  ...(e.package_id ? { package_id: e.package_id } : {}),
                })),
              }
            : {}),
        };
      });
      // Asked ids the caller has no buy of; an id on a later page is not missing.
      const unanswered = whole ? (filters.ids ?? []).filter((id) => !page.some((b) => b.media_buy_id === id)) : [];
      const errors = await missingBuys(ctx.db, owner, filters, unanswered, ctx.account);
      return {
        media_buys,
        ...(errors.length > 0 ? { errors } : {}),
        pagination,
        sandbox: ctx.account?.['sandbox'] === true,
      };
    },
  };
}

/** A package still to run without any creative: the formats it waits for (get-media-buys-response.json's format_ids_pending). */
function pendingFormats(
  pkg: PackageRow,
  buy: BuyRow,
  assigned: readonly PackageAssignmentRow[],
  products: readonly Product[],
): { format_ids_pending?: unknown[] } {
  if (isTerminal(buy.status) || pkg.cancellation || assigned.some((a) => a.package_id === pkg.package_id)) return {};
  const formats = formatsOf(pkg, products);
  return formats.length > 0 ? { format_ids_pending: [...formats] } : {};
}

function groupBy<T extends { media_buy_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.media_buy_id, [...(groups.get(row.media_buy_id) ?? []), row]);
  return groups;
}
