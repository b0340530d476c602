import { createHash } from 'node:crypto';
import type { Database } from '../../../db/database.ts';
import { appendEvents, feedEvent, type NewEvent } from '../../feed/index.ts';
import {
  lockProfilePublishing,
  publishedAgents,
  publishedProfiles,
  removePublishedProfile,
  savePublishedProfile,
} from '../sql.ts';
import type { AgentExtras } from './agent-extras.ts';
import type { InventoryProfile } from './inventory-profile.ts';
import type { ProfileEntry } from './profile-index.ts';

const actor = 'pipeline:agent-profiles';

/**
 * Publishes profile changes to the feed: `agent.profile_updated` with the whole profile and its
 * `changed_fields` when a public agent's profile changes (or first appears), `agent.removed` when
 * an agent no publisher authorizes any more drops out (an enrolled agent's removal is the
 * catalog's event). Every instance derives the same profiles; one at a time publishes (a lock
 * taken without waiting), comparing with what was last published, so each change is one event.
 * Private and members-only agents stay out of the feed, as the catalog keeps them.
 */
export class ProfilePublisher {
  /** The profiles as this instance last saw them published: a pass looks only at what moved since. */
  private seen = new Map<string, InventoryProfile>();
  /** Whether a pass has compared everything published, which finds agents that dropped out while no instance ran. */
  private primed = false;

  /** One pass; the number of events it wrote (0 also when another instance held the lock). */
  async publish(db: Database, entries: ReadonlyMap<string, ProfileEntry>, now: Date): Promise<number> {
    const current = new Map<string, ProfileEntry>();
    for (const [agent, entry] of entries)
      if (!entry.extras || entry.extras.visibility === 'public') current.set(agent, entry);
    const moved = [...current.values()]
      .filter((e) => this.seen.get(e.profile.agent_url) !== e.profile)
      .map((e) => e.profile.agent_url);
    const gone = [...this.seen.keys()].filter((agent) => !current.has(agent));
    if (this.primed && moved.length === 0 && gone.length === 0) return 0;
    const written = await db.transaction(async (tx) => {
      if (!(await lockProfilePublishing(tx))) return undefined;
      if (!this.primed)
        for (const agent of await publishedAgents(tx))
          if (!current.has(agent) && !gone.includes(agent)) gone.push(agent);
      const published = new Map((await publishedProfiles(tx, [...moved, ...gone])).map((row) => [row.agent_url, row]));
      const events: NewEvent[] = [];
      for (const agent of moved) {
        const { profile, extras } = current.get(agent)!;
        const digest = digestOf(profile);
        const before = published.get(agent);
        if (before?.digest === digest) continue;
        await savePublishedProfile(tx, {
          agent_url: agent,
          profile,
          digest,
          enrolled: extras !== undefined,
          published_at: now,
        });
        const changed = before
          ? changedFields(before.profile as unknown as InventoryProfile, profile)
          : Object.keys(profile).filter((k) => k !== 'agent_url' && k !== 'updated_at');
        events.push(feedEvent('agent.profile_updated', agent, actor, profilePayload(profile, extras, changed)));
      }
      for (const agent of gone) {
        const before = published.get(agent);
        if (!before) continue;
        await removePublishedProfile(tx, agent);
        if (!before.enrolled) events.push(feedEvent('agent.removed', agent, actor, { agent_url: agent }));
      }
      await appendEvents(tx, events);
      return events.length;
    });
    if (written === undefined) return 0;
    this.primed = true;
    for (const agent of moved) this.seen.set(agent, current.get(agent)!.profile);
    for (const agent of gone) this.seen.delete(agent);
    return written;
  }
}

/** Values of each list a payload carries at most (a follower needing all searches for the agent): an event stays a few tens of kilobytes. */
export const payloadListMax = 250;

/**
 * An `agent.profile_updated` payload: the profile flat, as core/registry-event.json's
 * agentProfilePayload has it, and again as `inventory_profile`, which the protocol's registry
 * client keeps as its copy of the agent's inventory; the enrolled agent's name; the changed fields.
 * A list longer than `payloadListMax` is cut, and named in `truncated_fields`.
 */
function profilePayload(
  profile: InventoryProfile,
  extras: AgentExtras | undefined,
  changed: string[],
): Record<string, unknown> {
  const truncated: string[] = [];
  const cap = <T>(field: string, values: T[]): T[] => {
    if (values.length <= payloadListMax) return values;
    truncated.push(field);
    return values.slice(0, payloadListMax);
  };
  const { agent_url, updated_at, ...rest } = profile;
  const inventory_profile = {
    ...rest,
    channels: cap('channels', rest.channels),
    property_types: cap('property_types', rest.property_types),
    markets: cap('markets', rest.markets),
    categories: cap('categories', rest.categories),
    tags: cap('tags', rest.tags),
    delivery_types: cap('delivery_types', rest.delivery_types),
    format_ids: cap('format_ids', rest.format_ids),
  };
  return {
    agent_url,
    ...inventory_profile,
    updated_at,
    type: 'sales',
    ...(extras ? { name: extras.name } : {}),
    changed_fields: changed,
    inventory_profile,
    ...(truncated.length > 0 ? { truncated_fields: truncated } : {}),
  };
}

function digestOf(profile: InventoryProfile): string {
  const { updated_at: _updated, ...rest } = profile;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}

/** The top-level fields whose values differ (the feed's advisory list; at least one). */
function changedFields(before: InventoryProfile, after: InventoryProfile): string[] {
  const fields = (Object.keys(after) as Array<keyof InventoryProfile>).filter(
    (k) => k !== 'agent_url' && k !== 'updated_at' && JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return fields.length > 0 ? fields : ['updated_at'];
}
