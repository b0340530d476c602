import type { Clock } from '../../../clock.ts';
import type { Queryable } from '../../../db/database.ts';
import { decodeCursor, encodeCursor } from '../../../protocol/cursor.ts';
import { ApError } from '../../../protocol/errors.ts';
import { RecentAnswers } from '../../../protocol/recent-answers.ts';
import type { AuthorizationIndex, CatalogMember, CatalogMembers } from '../../lookups/index.ts';
import { complianceSummary } from '../probing/index.ts';
import { profileInputs, type ExtrasRow } from '../sql.ts';
import { canSee, type Viewer } from '../visibility.ts';
import { extrasFrom, type AgentExtras } from './agent-extras.ts';
import { ProfileIndex } from './profile-index.ts';
import { byRank, rank, type Ranked } from './ranking.ts';
import { ResultSnapshots } from './result-snapshots.ts';
import { queryKey, type SearchQuery } from './search-query.ts';

export interface SearchPage {
  results: Array<ReturnType<typeof resultOf>>;
  cursor: string;
  has_more: boolean;
}

/**
 * Agent search (spec section 4): inventory profiles in memory (ProfileIndex), each search ranked
 * once per generation of the profiles and kept for its later pages (ResultSnapshots). A request
 * reads memory only; the enrolled agents' part is reloaded from the database beside it.
 */
export class AgentSearch {
  readonly profiles: ProfileIndex;
  private readonly snapshots: ResultSnapshots;
  /** Pages as sent (UTF-8 bytes), by ranking, offset and size: a ranking's pages never change, and popular first pages are asked again and again. */
  private readonly pages = new RecentAnswers<Buffer>(256);
  private readonly index: () => AuthorizationIndex;
  private readonly clock: Clock;

  /** Who enrolled the publicly listed agents, for the lookups, kept as the enrollments are read here. */
  private readonly members: CatalogMembers | undefined;

  constructor(clock: Clock, index: () => AuthorizationIndex, members?: CatalogMembers) {
    this.clock = clock;
    this.profiles = new ProfileIndex(clock);
    this.snapshots = new ResultSnapshots(clock, { ttlMs: 10 * 60_000, entries: 500 });
    this.index = index;
    this.members = members;
  }

  /** A page of the search as its JSON body. */
  search(query: SearchQuery, viewer: Viewer, limit: number, cursor: string | undefined): Buffer {
    let snapshot;
    let offset = 0;
    if (cursor !== undefined) {
      const position = decodeCursor(cursor, ['s', 'o']) as { s: string; o: string };
      offset = Number(position.o);
      if (!Number.isSafeInteger(offset) || offset < 0)
        throw new ApError(
          'invalid_cursor',
          'The cursor is malformed; pass the cursor from the previous page unchanged.',
        );
      snapshot = this.snapshots.named(position.s);
    } else {
      const entries = this.profiles.current(this.index());
      // Who may see what is part of the search: each standing has its own ranking.
      const key = `${viewer.everything ? '*' : `${viewer.membersOnly ? 'm' : ''}:${viewer.organizationId ?? ''}`}|${queryKey(query)}`;
      snapshot = this.snapshots.ranking(key, this.profiles.generation, () => {
        const ranked: Ranked[] = [];
        for (const { profile, extras } of entries.values()) {
          if (extras && !canSee(viewer, { visibility: extras.visibility, organization_id: extras.organizationId }))
            continue;
          if (query.type !== undefined && (extras?.type ?? 'sales') !== query.type) continue;
          const hit = rank(profile, query);
          if (hit) ranked.push({ ...hit, extras });
        }
        return ranked.sort(byRank);
      });
    }
    const key = `${snapshot.id}:${offset}:${limit}`;
    return (
      this.pages.get(key) ??
      this.pages.set(
        key,
        Buffer.from(JSON.stringify(pageOf(snapshot.id, snapshot.ranked, offset, limit, this.clock.now()))),
      )
    );
  }

  /** Derives every profile now rather than at the next search. */
  warm(): void {
    this.profiles.current(this.index());
  }

  /** Reads the enrolled agents' part of their profiles again: every agent's, or one's. */
  async reload(db: Queryable, agentUrl?: string): Promise<void> {
    const rows = await profileInputs(db, agentUrl);
    if (agentUrl !== undefined) {
      this.profiles.setExtras(agentUrl, rows[0] ? extrasFrom(rows[0]) : undefined);
      this.members?.set(agentUrl, rows[0] ? memberOf(rows[0]) : undefined);
      return;
    }
    this.profiles.replaceExtras(new Map<string, AgentExtras>(rows.map((row) => [row.agent_url, extrasFrom(row)])));
    this.members?.replace(
      new Map(
        rows.flatMap((row): Array<[string, CatalogMember]> => {
          const member = memberOf(row);
          return member ? [[row.agent_url, member]] : [];
        }),
      ),
    );
  }
}

/** The member organization that enrolled a publicly listed agent; none for one the public catalog does not list. */
function memberOf(row: ExtrasRow): CatalogMember | undefined {
  return row.visibility === 'public' ? { slug: row.organization_slug, display_name: row.organization_name } : undefined;
}

function pageOf(id: string, ranked: readonly Ranked[], offset: number, limit: number, now: Date): SearchPage {
  const page = ranked.slice(offset, offset + limit);
  const next = offset + page.length;
  return {
    results: page.map((hit) => resultOf(hit, now)),
    cursor: encodeCursor({ s: id, o: String(next) }),
    has_more: next < ranked.length,
  };
}

/**
 * A result as the spec shows it (the profile, flat, with its score and matched filters), and
 * beside it as the protocol's registry client reads it: `url`, `name`, `type`, the profile as
 * `inventory_profile`, the score as `match`, and the compliance summary of an agent probing knows.
 * An agent only the graph knows is named by its URL.
 */
function resultOf({ profile, relevance_score, matched_filters, extras }: Ranked, now: Date) {
  const { agent_url, updated_at: _updated, ...inventory_profile } = profile;
  return {
    ...profile,
    relevance_score,
    matched_filters,
    url: agent_url,
    name: extras?.name ?? agent_url,
    type: extras?.type ?? 'sales',
    inventory_profile,
    match: { score: relevance_score, matched_filters },
    ...(extras?.compliance ? { compliance_summary: complianceSummary(extras.compliance, now) } : {}),
  };
}
