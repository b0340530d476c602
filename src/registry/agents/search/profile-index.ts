import type { Clock } from '../../../clock.ts';
import type { AuthorizationIndex } from '../../lookups/index.ts';
import type { AgentExtras } from './agent-extras.ts';
import { graphPart, profileOf, type InventoryProfile } from './inventory-profile.ts';

/** A profile with who may see it: agents only the graph knows are public (their publishers' files are). */
export interface ProfileEntry {
  profile: InventoryProfile;
  extras: AgentExtras | undefined;
}

/**
 * Every sales agent's inventory profile, in memory: the agents the authorization graph knows
 * (any agent a publisher authorizes sells its inventory) and the enrolled sales agents. Derived
 * from this process's authorization index, again only for the agents whose part of the graph
 * changed (`takeTouched`), and from what enrollment and probing add (`setExtras`).
 * `generation` moves whenever a profile changes, so answers derived from them know when to go.
 */
export class ProfileIndex {
  generation = 0;
  private index: AuthorizationIndex | undefined;
  private version = -1;
  private readonly entries = new Map<string, ProfileEntry>();
  private readonly extras = new Map<string, AgentExtras>();
  private readonly dirty = new Set<string>();
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Agents with a profile. */
  get size(): number {
    return this.entries.size;
  }

  /** What enrollment and probing say of an agent now (undefined: no longer enrolled). */
  setExtras(agent: string, extras: AgentExtras | undefined): void {
    const before = this.extras.get(agent);
    // Reloaded on every agent event: an agent whose extras did not move changes nothing, and no ranking goes.
    if (before && extras && sameExtras(before, extras)) return;
    if (extras) this.extras.set(agent, extras);
    else this.extras.delete(agent);
    const entry = this.entries.get(agent);
    if (entry && before && extras && sameProfileInputs(before, extras)) {
      // Only what the search shows beside the profile moved (its name, its compliance, who may see it): the profile stands.
      this.entries.set(agent, { profile: entry.profile, extras });
      this.generation++;
      return;
    }
    this.dirty.add(agent);
  }

  /** Replaces every agent's extras (a periodic reload: changes no event announced, such as a private agent's). */
  replaceExtras(all: ReadonlyMap<string, AgentExtras>): void {
    for (const agent of this.extras.keys()) if (!all.has(agent)) this.setExtras(agent, undefined);
    for (const [agent, extras] of all) if (!sameExtras(this.extras.get(agent), extras)) this.setExtras(agent, extras);
  }

  /** The profiles as of `index` now. */
  current(index: AuthorizationIndex): ReadonlyMap<string, ProfileEntry> {
    if (index !== this.index) {
      this.index = index;
      this.version = -1;
      index.takeTouched();
      for (const agent of index.agents()) this.dirty.add(agent);
      for (const agent of this.entries.keys()) this.dirty.add(agent);
    } else if (index.version !== this.version) {
      const touched = index.takeTouched();
      for (const agent of touched.agents) this.dirty.add(agent);
      for (const publisher of touched.publishers) for (const agent of index.agentsAt(publisher)) this.dirty.add(agent);
    }
    this.version = index.version;
    if (this.dirty.size > 0) this.refresh(index);
    return this.entries;
  }

  private refresh(index: AuthorizationIndex): void {
    const now = this.clock.now();
    const first = this.entries.size === 0;
    let changed = false;
    for (const agent of this.dirty) {
      const extras = this.extras.get(agent);
      const graph = graphPart(index, agent);
      if (graph.propertyCount === 0 && index.grantsOf(agent).length === 0 && extras?.type !== 'sales') {
        changed = this.entries.delete(agent) || changed;
        continue;
      }
      const before = this.entries.get(agent);
      // A profile keeps the time it last changed; one first seen at start takes its enrollment's.
      const seen = first && extras ? extras.updatedAt : now;
      const profile = profileOf(agent, graph, extras, seen.toISOString());
      if (before && sameProfile(before.profile, profile)) {
        // The profile stands (the same object, with the time it last changed); what beside it moved is kept.
        if (sameExtras(before.extras, extras)) continue;
        this.entries.set(agent, { profile: before.profile, extras });
        changed = true;
        continue;
      }
      this.entries.set(agent, { profile, extras });
      changed = true;
    }
    this.dirty.clear();
    if (changed) this.generation++;
  }
}

function sameProfile(a: InventoryProfile, b: InventoryProfile): boolean {
  const { updated_at: _a, ...left } = a;
  const { updated_at: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}

function sameExtras(a: AgentExtras | undefined, b: AgentExtras | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}

/** Whether two agents' extras derive the same profile: they differ at most in what the search shows beside it. */
function sameProfileInputs(a: AgentExtras, b: AgentExtras): boolean {
  const inputs = ({
    name: _name,
    compliance: _compliance,
    visibility: _visibility,
    organizationId: _organization,
    ...rest
  }: AgentExtras) => JSON.stringify(rest);
  return inputs(a) === inputs(b);
}
