import { AgentError } from '../../../protocol/errors.ts';
import {
  refuseIfStrict,
  sentCreatives,
  stageCreatives,
  syncCreativesDeclaration,
  type CreativeAsset,
  type LibraryCreative,
  type Result,
} from '../../creative-library/index.ts';
import { ownerOf, type AgentTask } from '../../runtime/index.ts';
import { accountKey, isSandbox } from '../library/account.ts';
import * as sql from '../library/sql.ts';
import { ownFormats, type AgentFormats } from '../own-formats.ts';

export type LibrarySettings = AgentFormats;

/**
 * `sync_creatives` (creative/sync-creatives-request.json) into this agent's library: the library
 * of the caller's organization that the request's `account` names (library/account.ts). Each
 * creative is checked against the format it names, one this agent defines (FORMAT_NOT_SUPPORTED
 * otherwise) whose asset requirements it must meet (`manifestProblems`); that check is the whole
 * review, so a valid new or changed creative is `approved` at once, and one sent again unchanged
 * keeps its status unless archived, which brings it back. `validation_mode` strict (the schema's
 * default) refuses the whole call over any failed creative, storing nothing; lenient stores the
 * valid ones and answers each failure in its creative's `errors`. `delete_missing` archives the
 * library's creatives the request leaves out (answered as updated to archived); `dry_run` answers
 * the same, writing nothing. `assignments` is ignored, as the schema says of agents without media buys.
 */
export function syncCreativesTask(settings: LibrarySettings): AgentTask {
  return {
    ...syncCreativesDeclaration(
      'Upload or update creatives in your library here (account names the library: account_id, or brand and operator). Each creative: creative_id, name, format_id from list_creative_formats, assets keyed by the format’s asset_id. validation_mode "strict" (default) refuses the whole sync on any problem; "lenient" stores what is valid and answers each problem per creative. delete_missing archives the library’s creatives not sent; dry_run previews. Answers each creative’s action, status and errors.',
      'core/account-ref.json: the library these creatives go to.',
      {
        delete_missing: {
          type: 'boolean',
          description: 'Archive the library’s creatives this sync does not send (not with creative_ids).',
        },
      },
    ),
    async handler(args, ctx) {
      const scope = args['creative_ids'] as string[] | undefined;
      const deleteMissing = args['delete_missing'] === true;
      if (deleteMissing && scope) {
        throw new AgentError(
          'INVALID_REQUEST',
          'delete_missing archives every creative of the library a sync leaves out, so it cannot go with creative_ids, which sync only some.',
          { field: 'delete_missing' },
        );
      }
      const ref = args['account'] as Record<string, unknown>;
      const library = { owner: ownerOf(ctx.principal), account: accountKey(ref) };
      const now = ctx.clock.now();
      const creatives = args['creatives'] as CreativeAsset[];
      const sent = sentCreatives(args);

      await sql.lockLibrary(ctx.db, library);
      const stored = new Map<string, LibraryCreative>(
        (
          await sql.creativesByIds(
            ctx.db,
            library,
            sent.map((s) => s.creative.creative_id),
          )
        ).map((c) => [c.creative_id, c]),
      );
      const formats = ownFormats(settings.formats(), settings.agentUrl());
      const { results, writes } = stageCreatives(sent, stored, {
        now,
        formats,
        status: 'approved',
        revives: ['archived'],
      });
      const answer: Result[] = [...results.values()];
      const failed = answer.filter((r) => r.action === 'failed');
      refuseIfStrict(args, answer, failed);
      if (deleteMissing) {
        // A creative the request sends, even one that failed, is not missing.
        const named = new Set(creatives.map((c) => c.creative_id));
        for (const creative of await sql.unarchived(ctx.db, library)) {
          if (named.has(creative.creative_id)) continue;
          writes.push({ ...creative, status: 'archived', updated_at: now });
          answer.push({
            creative_id: creative.creative_id,
            action: 'updated',
            status: 'archived',
            changes: ['status'],
          });
        }
      }
      const dryRun = args['dry_run'] === true;
      if (!dryRun) for (const creative of writes) await sql.upsertCreative(ctx.db, library, creative);
      return { ...(dryRun ? { dry_run: true } : {}), creatives: answer, sandbox: isSandbox(ref) };
    },
  };
}
