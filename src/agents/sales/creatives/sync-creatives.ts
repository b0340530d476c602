import { sameFormatId } from '../../formats/index.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { errorObject, type AgentTask } from '../../runtime/index.ts';
import { actorOf, ownerOf, requireActiveAccount } from '../accounts/index.ts';
import type { Shelf } from '../offering.ts';
import {
  refuseIfStrict,
  sentCreatives,
  stageCreatives,
  syncCreativesDeclaration,
  type LibraryCreative,
} from '../../creative-library/index.ts';
import type { AssignablePackage, BuysDesk } from './buys.ts';
import { sellerFormats } from './check-creative.ts';
import { reviewStatus } from './creative.ts';
import * as sql from './sql.ts';

export interface CreativeLibraryOptions {
  /**
   * What the account sees: the formats creatives must be of (this deployment's standard formats,
   * named by its creative agent's URL, and a sandbox account's seeded ones) and the products (which
   * formats a package takes).
   */
  shelf: Shelf;
  /** The media buys whose packages creatives are assigned to (the composition hands them over: the library does not import media buys). */
  buys: BuysDesk;
}

interface Assignment {
  creative_id: string;
  package_id: string;
  weight?: number;
  placement_ids?: string[];
}

/**
 * `sync_creatives` (creative/sync-creatives-request.json): upserts creatives into the account's
 * library, each checked against this seller's formats, and assigns creatives (these or ones
 * already in the library) to packages of the caller's media buys on that account. A problem is
 * typed and tied to its creative: an unknown format or a missing asset in its `errors`, a package
 * that is not the caller's (PACKAGE_NOT_FOUND), closed (INVALID_STATE) or whose product does not
 * take the creative's format (VALIDATION_ERROR) in its `assignment_errors`. In `strict` mode (the
 * schema's default) any problem fails the whole call and nothing is written; in `lenient` mode the
 * rest is stored and the problems answered per creative. A buy's first creative moves it out of
 * pending_creatives (`buys.recordCreativesAssigned`, media buys' own). `dry_run` answers the same, writing nothing.
 */
export function syncCreativesTask({ shelf, buys }: CreativeLibraryOptions): AgentTask {
  return {
    ...syncCreativesDeclaration(
      'Upload or update creatives in an account’s library (creative_id, name, format_id from list_creative_formats, assets keyed by the format’s asset_id) and assign creatives to packages of your media buys (assignments[]: creative_id, package_id). validation_mode "strict" (default) refuses the whole sync on any problem; "lenient" stores what is valid and answers each problem per creative. dry_run previews. Answers each creative’s action, review status, assignments and errors.',
      'core/account-ref.json: the account that owns these creatives.',
      {
        assignments: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              creative_id: { type: 'string' },
              package_id: { type: 'string' },
              weight: { type: 'number', minimum: 0, maximum: 100 },
              placement_ids: { type: 'array', items: { type: 'string' } },
            },
            required: ['creative_id', 'package_id'],
          },
        },
        delete_missing: { type: 'boolean', description: 'Not offered by this seller.' },
      },
    ),
    async handler(args, ctx) {
      const account = requireActiveAccount(ctx.account);
      if (args['delete_missing'] === true)
        throw new AgentError('UNSUPPORTED_FEATURE', 'This seller does not archive creatives missing from a sync yet.', {
          field: 'delete_missing',
        });
      const owner = ownerOf(ctx.principal);
      const accountId = account.account_id;
      const sandbox = account['sandbox'] === true;
      const now = ctx.clock.now();
      const dryRun = args['dry_run'] === true;
      const sent = sentCreatives(args);
      const assignments = (args['assignments'] as Assignment[] | undefined) ?? [];

      const { formats, products } = await shelf(ctx.db, account);
      await sql.lockLibrary(ctx.db, accountId);
      const ids = [...new Set([...sent.map((s) => s.creative.creative_id), ...assignments.map((a) => a.creative_id)])];
      const stored = new Map<string, LibraryCreative>(
        (await sql.creativesByIds(ctx.db, accountId, ids)).map((row) => [row.creative_id, row]),
      );
      const { results, writes } = stageCreatives(sent, stored, {
        now,
        formats: sellerFormats(formats),
        status: reviewStatus(sandbox),
      });

      const packages = await buys.assignablePackages(
        ctx.db,
        owner,
        accountId,
        assignments.map((a) => a.package_id),
        products,
      );
      const already = new Set(
        (await sql.assignmentsOf(ctx.db, accountId, ids)).map((a) => `${a.creative_id} ${a.package_id}`),
      );
      const assigned: Array<Assignment & { pkg: AssignablePackage; isNew: boolean }> = [];
      for (const [i, assignment] of assignments.entries()) {
        const id = assignment.creative_id;
        const result = results.get(id);
        if (result?.action === 'failed') continue;
        const creative = stored.get(id);
        if (!creative) {
          const error = new AgentError(
            'CREATIVE_NOT_FOUND',
            `Account ${accountId} has no creative ${id}; sync it first or in this call.`,
            { field: `assignments[${i}].creative_id` },
          );
          results.set(id, { creative_id: id, action: 'failed', errors: [errorObject(error)] });
          continue;
        }
        const line = result ?? { creative_id: id, action: 'unchanged' as const, status: creative.status };
        results.set(id, line);
        const problem = assignmentProblem(
          assignment,
          creative,
          packages.find((p) => p.package_id === assignment.package_id),
          accountId,
        );
        if (problem) {
          line.assignment_errors = { ...line.assignment_errors, [assignment.package_id]: problem };
          continue;
        }
        line.assigned_to = [...new Set([...(line.assigned_to ?? []), assignment.package_id])];
        const key = `${id} ${assignment.package_id}`;
        assigned.push({
          ...assignment,
          pkg: packages.find((p) => p.package_id === assignment.package_id)!,
          isNew: !already.has(key),
        });
        already.add(key);
      }

      const answer = [...results.values()];
      const failed = answer.filter((r) => r.action === 'failed' || r.assignment_errors);
      refuseIfStrict(args, answer, failed);

      if (!dryRun) {
        for (const row of writes) await sql.upsertCreative(ctx.db, { ...row, owner, account_id: accountId });
        for (const a of assigned) {
          await sql.upsertAssignment(ctx.db, {
            account_id: accountId,
            creative_id: a.creative_id,
            package_id: a.package_id,
            weight: a.weight ?? null,
            placement_ids: a.placement_ids ?? null,
            assigned_at: now,
          });
        }
        const byBuy = new Map<string, Map<string, string[]>>();
        for (const a of assigned.filter((x) => x.isNew)) {
          const packagesOfBuy = byBuy.get(a.pkg.media_buy_id) ?? new Map<string, string[]>();
          packagesOfBuy.set(a.package_id, [...(packagesOfBuy.get(a.package_id) ?? []), a.creative_id]);
          byBuy.set(a.pkg.media_buy_id, packagesOfBuy);
        }
        for (const [mediaBuyId, byPackage] of byBuy)
          await buys.recordCreativesAssigned(ctx.db, {
            owner,
            mediaBuyId,
            byPackage,
            actor: actorOf(ctx.principal),
            now,
          });
      }
      return { ...(dryRun ? { dry_run: true } : {}), creatives: answer, sandbox };
    },
  };
}

/** Why a creative cannot go to a package, as assignment_errors words it; undefined when it can. */
function assignmentProblem(
  assignment: Assignment,
  creative: LibraryCreative,
  pkg: AssignablePackage | undefined,
  accountId: string,
): string | undefined {
  if (!pkg)
    return `PACKAGE_NOT_FOUND: account ${accountId} has no package ${assignment.package_id} in your media buys.`;
  if (pkg.closed) return `INVALID_STATE: package ${pkg.package_id} takes no creatives: ${pkg.closed}.`;
  if (!pkg.formats.some((f) => sameFormatId(f, creative.format_id))) {
    return `VALIDATION_ERROR: package ${pkg.package_id} does not take format ${creative.format_id.id}; it takes ${pkg.formats.map((f) => f.id).join(', ')}.`;
  }
  return undefined;
}
