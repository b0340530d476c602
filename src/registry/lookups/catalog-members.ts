/** The member organization that enrolled an agent, as lookups name it. */
export interface CatalogMember {
  slug: string;
  display_name: string;
}

/**
 * Which member organization enrolled each agent of the public catalog, in memory: the domain
 * lookup answers `source: registered` and the `member` for these agents, `discovered` for the
 * rest, without asking the database. Only publicly listed agents are here: a lookup's answer is
 * the same for every caller (it is kept and sent to all), so it tells what the public catalog
 * tells. The agent catalog feeds it as it reads enrollments (agents/search). `generation` moves
 * on every change, so kept answers that show members know when to go.
 */
export class CatalogMembers {
  generation = 0;
  private readonly members = new Map<string, CatalogMember>();

  /** The organization that enrolled `agent` (a canonical URL), when the public catalog lists it. */
  of(agent: string): CatalogMember | undefined {
    return this.members.get(agent);
  }

  /** What the catalog says of one agent now (undefined: not enrolled, or not listed publicly). */
  set(agent: string, member: CatalogMember | undefined): void {
    const before = this.members.get(agent);
    if (before?.slug === member?.slug && before?.display_name === member?.display_name) return;
    if (member) this.members.set(agent, member);
    else this.members.delete(agent);
    this.generation++;
  }

  /** Every agent's at once (a full reload): agents absent from `all` are no longer members'. */
  replace(all: ReadonlyMap<string, CatalogMember>): void {
    for (const agent of [...this.members.keys()]) if (!all.has(agent)) this.set(agent, undefined);
    for (const [agent, member] of all) this.set(agent, member);
  }
}
