import canonicalize from 'canonicalize';
import { AgentError } from '../../protocol/errors.ts';
import { errorObject } from '../runtime/index.ts';
import { creativeProblems, type FormatBook } from './check-creative.ts';
import { detailsOf, type CreativeAsset, type CreativeStatus, type LibraryCreative } from './creative.ts';

/** One creative's line of a sync's answer (sync-creatives-response.json's creatives[]). */
export interface Result {
  creative_id: string;
  action: 'created' | 'updated' | 'unchanged' | 'failed';
  status?: string;
  changes?: string[];
  errors?: ReturnType<typeof errorObject>[];
  assigned_to?: string[];
  assignment_errors?: Record<string, string>;
}

/** Against which formats creatives go into a library, what status they take there, and when. */
export interface Uploader {
  now: Date;
  formats: FormatBook;
  /** The status of a creative that is new or changed: the library's review decides it. */
  status: CreativeStatus;
  /** Statuses a creative sent again unchanged leaves for `status` (the library's way of bringing it back); others it keeps. */
  revives?: readonly CreativeStatus[];
}

export interface Staged {
  /** Each creative's line, by creative_id. */
  results: Map<string, Result>;
  /** The creatives to write: new or changed ones (unchanged ones are not rewritten). */
  writes: LibraryCreative[];
}

// Compared as canonical JSON: jsonb keeps its own key order.
const compared = ['name', 'format_id', 'assets', 'tags', 'details'] as const;

/**
 * What uploading creatives into a library makes of each, the one check every upload path shares
 * (both agents' sync_creatives, and creatives sent inline with a media buy's packages): an id sent
 * twice fails every copy, as does an unknown format or assets short of the format's; a valid one
 * is created, updated (naming what changed) or unchanged against `stored`, which it updates in
 * place with the versions to write. Writes nothing.
 */
export function stageCreatives(
  sent: ReadonlyArray<{ creative: CreativeAsset; at: string }>,
  stored: Map<string, LibraryCreative>,
  uploader: Uploader,
): Staged {
  const { now, formats } = uploader;
  const results = new Map<string, Result>();
  const writes: LibraryCreative[] = [];
  for (const { creative, at } of sent) {
    const id = creative.creative_id;
    // Which of two versions to keep is not ours to guess: every copy of the id fails.
    const problems =
      sent.filter((s) => s.creative.creative_id === id).length > 1
        ? [
            new AgentError('INVALID_REQUEST', `Creative ${id} is listed more than once; send each creative once.`, {
              field: `${at}.creative_id`,
            }),
          ]
        : creativeProblems(creative, formats, at);
    if (problems.length > 0) {
      results.set(id, { creative_id: id, action: 'failed', errors: problems.map(errorObject) });
      continue;
    }
    const before = stored.get(id);
    const content = {
      creative_id: id,
      name: creative.name,
      format_id: creative.format_id,
      assets: creative.assets,
      tags: creative.tags ?? [],
      details: detailsOf(creative),
    };
    const changes: string[] = before
      ? compared
          .filter((field) => canonicalize(before[field]) !== canonicalize(content[field]))
          .map((c) => (c === 'details' ? 'other_fields' : c))
      : [];
    if (before && changes.length === 0 && uploader.revives?.includes(before.status)) changes.push('status');
    const action = !before ? 'created' : changes.length > 0 ? 'updated' : 'unchanged';
    const status = before && action === 'unchanged' ? before.status : uploader.status;
    const written = {
      ...content,
      status,
      created_at: before?.created_at ?? now,
      updated_at: action === 'unchanged' ? before!.updated_at : now,
    };
    stored.set(id, written);
    if (action !== 'unchanged') writes.push(written);
    results.set(id, { creative_id: id, action, status, ...(action === 'updated' ? { changes } : {}) });
  }
  return { results, writes };
}

/** The whole call refused over its failed creatives: VALIDATION_ERROR at the first problem's field, every failed creative's line in details.creatives. */
export function refusal(failed: readonly Result[], total: number, suggestion: string): AgentError {
  const first = failed[0]!;
  return new AgentError(
    'VALIDATION_ERROR',
    `${failed.length} of ${total} creatives could not be synced (${first.creative_id}: ${first.errors?.[0]?.message ?? Object.values(first.assignment_errors!)[0]}); nothing was stored.`,
    {
      field: first.errors?.[0]?.field ?? 'assignments',
      details: { creatives: failed },
      suggestion,
    },
  );
}
