import type { Database } from '../../src/db/database.ts';
import { markStale } from '../../src/registry/graph/index.ts';
import { publishAdagents, publishBrandJson } from './authorization-world.ts';
import type { Random } from './random.ts';

/**
 * A randomly generated authorization graph, written the crawler's way (publishAdagents,
 * publishBrandJson, markStale), and questions about it. Small pools of identifiers, property ids,
 * tags and agents make publishers share identifiers, selectors hit, and operators declare what
 * publishers authorize often enough that every answer of the check comes up.
 */

type Json = Record<string, unknown>;

/** One check as the bulk endpoint takes it. */
export interface Question {
  agent_url: string;
  identifier?: { type: string; value: string };
  publisher_domain?: string;
  property_id?: string;
  delegation_type?: string;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export const publisherDomains = range(30).map((i) => `pub${i}.example`);
/** Named by selectors and questions, never publishing a file. */
const silentDomains = range(4).map((i) => `silent${i}.example`);
const agentUrls = range(12).map((i) => `https://sales.agent${i}.example/mcp`);
/** In no file at all. */
const strangerAgent = 'https://stranger.example/mcp';
/** Operators: some only operate, two also publish. */
const operatorDomains = [...range(8).map((i) => `op${i}.example`), 'pub0.example', 'pub1.example'];
const tags = ['news', 'sports', 'app', 'ctv', 'premium', 'kids'];
const propertyIds = range(8).map((i) => `p${i}`);
const delegations = ['direct', 'delegated', 'ad_network'];
const relationships = ['owned', 'direct', 'delegated', 'ad_network'];

type PropertyType = 'website' | 'mobile_app' | 'ctv_app';
const propertyTypes: PropertyType[] = ['website', 'mobile_app', 'ctv_app'];
const identifierPools: Record<PropertyType, Array<{ type: string; values: string[] }>> = {
  website: [
    { type: 'domain', values: [...publisherDomains, ...range(24).map((k) => `site${k}.example`)] },
    { type: 'subdomain', values: range(8).map((k) => `news.site${k}.example`) },
  ],
  mobile_app: [
    // Bundle ids keep their case: a question in another case names another app.
    { type: 'ios_bundle', values: range(14).map((k) => (k % 4 === 0 ? `com.App${k}.ios` : `com.app${k}.ios`)) },
    { type: 'android_package', values: range(10).map((k) => `com.app${k}.android`) },
    { type: 'apple_app_store_id', values: range(6).map((k) => String(100000 + k)) },
  ],
  ctv_app: [{ type: 'roku_store_id', values: range(8).map((k) => `roku-${k}`) }],
};

export class RandomWorld {
  readonly adagents = new Map<string, Json>();
  readonly brands = new Map<string, Json>();
  readonly stale = new Set<string>();
  /** Every identifier and (publisher, property_id) ever published: removed ones stay in the catalog, stale. */
  private readonly identifiersSeen = new Map<string, { type: string; value: string }>();
  private readonly idsSeen = new Map<string, { publisher_domain: string; property_id: string }>();
  private names = 0;
  private readonly r: Random;

  constructor(random: Random) {
    this.r = random;
  }

  /** The first crawl: most publishers' files and every operator's brand.json, in random order, then a few failed re-crawls. */
  async build(db: Database): Promise<number> {
    const files = publisherDomains.slice(0, 26).map((domain) => ({ domain, doc: this.adagentsJson(domain) }));
    // Operators mostly declare what publishers list, so both sides of a check often meet.
    const declarable = files.flatMap(({ doc }) => allProperties(doc));
    const steps: Array<() => Promise<void>> = [];
    for (const { domain, doc } of files) steps.push(() => this.publish(db, domain, doc));
    for (const operator of operatorDomains)
      steps.push(() => this.publishBrand(db, operator, this.brandJson(operator, declarable)));
    await this.run(steps);
    for (const domain of this.r.some([...this.adagents.keys()], 3, 4)) await this.markStale(db, domain);
    return steps.length;
  }

  /**
   * A round of re-crawls: files re-published with grants removed, added or changed, properties
   * added, dropped or re-tagged; new publishers; failed crawls; stale publishers coming back;
   * operators changing their agents or declarations.
   */
  async change(db: Database): Promise<number> {
    const steps: Array<() => Promise<void>> = [];
    const active = [...this.adagents.keys()].filter((d) => !this.stale.has(d));
    for (const domain of this.r.some(active, 5, 8))
      steps.push(() => this.publish(db, domain, this.mutated(this.adagents.get(domain)!, domain)));
    for (const domain of this.r.some(active, 1, 3)) steps.push(() => this.markStale(db, domain));
    for (const domain of this.r.some([...this.stale], 1, 2)) {
      const doc = this.adagents.get(domain)!;
      steps.push(() => this.publish(db, domain, this.r.chance(0.5) ? doc : this.mutated(doc, domain)));
    }
    const unpublished = publisherDomains.filter((d) => !this.adagents.has(d));
    for (const domain of this.r.some(unpublished, 0, 2))
      steps.push(() => this.publish(db, domain, this.adagentsJson(domain)));
    const declarable = [...this.adagents.values()].flatMap(allProperties);
    for (const operator of this.r.some(operatorDomains, 1, 3)) {
      steps.push(() =>
        this.publishBrand(
          db,
          operator,
          this.r.chance(0.3)
            ? this.brandJson(operator, declarable)
            : this.mutatedBrand(this.brands.get(operator)!, declarable),
        ),
      );
    }
    await this.run(steps);
    return steps.length;
  }

  /**
   * Random checks, biased towards agents the publisher names, and a share asking about a property a
   * grant reaches for the agent it names, so authorized answers come up.
   */
  questions(count: number): Question[] {
    const identifiers = [...this.identifiersSeen.values()];
    const ids = [...this.idsSeen.values()];
    const out: Question[] = [];
    for (let i = 0; i < count; i++) {
      const q: Question = { agent_url: '' };
      let publisher: string | undefined;
      if (this.r.chance(0.3)) {
        out.push(this.grantedQuestion());
        continue;
      }
      if (this.r.chance(0.5)) {
        const roll = this.r.next();
        if (roll < 0.85) {
          const known = this.r.pick(identifiers);
          q.identifier =
            known.type === 'domain' && this.r.chance(0.1)
              ? { type: 'domain', value: known.value.toUpperCase() }
              : known;
        } else if (roll < 0.93) {
          // A publisher's own domain, declared as a property or not.
          q.identifier = { type: 'domain', value: this.r.pick([...publisherDomains, ...silentDomains]) };
        } else {
          q.identifier = {
            type: this.r.pick(['domain', 'ios_bundle', 'roku_store_id']),
            value: `unknown${this.r.int(0, 9)}.example`,
          };
        }
        publisher = this.publisherDeclaring(q.identifier);
      } else if (this.r.chance(0.88)) {
        const known = this.r.pick(ids);
        Object.assign(q, known);
        publisher = known.publisher_domain;
      } else {
        q.publisher_domain = this.r.pick([...publisherDomains, ...silentDomains]);
        q.property_id = this.r.chance(0.5) ? this.r.pick(propertyIds) : `missing${this.r.int(0, 3)}`;
        publisher = q.publisher_domain;
      }
      const named = publisher ? this.agentsNamedBy(publisher) : [];
      const agent =
        named.length > 0 && this.r.chance(0.65) ? this.r.pick(named) : this.r.pick([...agentUrls, strangerAgent]);
      // The same agent, spelled as canonicalization must recognise it.
      q.agent_url = this.r.chance(0.1)
        ? agent.replace('https://sales.', 'https://SALES.').replace('.example/', '.example:443/')
        : agent;
      if (this.r.chance(0.6)) q.delegation_type = this.r.pick(delegations);
      out.push(q);
    }
    return out;
  }

  /** A grant's agent asked about a property the grant (probably) reaches, with its delegation or none. */
  private grantedQuestion(): Question {
    const [domain, doc] = this.r.pick([...this.adagents]);
    const grant = this.r.pick(doc['authorized_agents'] as Json[]);
    const targets = ((grant['publisher_properties'] as Json[] | undefined) ?? []).map((s) =>
      String(s['publisher_domain']),
    );
    const reachable = [
      ...allProperties(doc).map((p) => ({ publisher: domain, p })),
      ...targets.flatMap((t) =>
        ((this.adagents.get(t)?.['properties'] as Json[] | undefined) ?? []).map((p) => ({ publisher: t, p })),
      ),
    ];
    const { publisher, p } = this.r.pick(reachable);
    const q: Question = { agent_url: String(grant['url']) };
    if (typeof p['property_id'] === 'string' && this.r.chance(0.4))
      Object.assign(q, { publisher_domain: publisher, property_id: p['property_id'] });
    else q.identifier = this.r.pick(p['identifiers'] as Array<{ type: string; value: string }>);
    if (typeof grant['delegation_type'] === 'string' && this.r.chance(0.6))
      q.delegation_type = grant['delegation_type'];
    return q;
  }

  private async run(steps: Array<() => Promise<void>>): Promise<void> {
    for (const step of this.r.some(steps, steps.length, steps.length)) await step();
  }

  private async publish(db: Database, domain: string, doc: Json): Promise<void> {
    await publishAdagents(db, domain, doc);
    this.adagents.set(domain, doc);
    this.stale.delete(domain);
    for (const p of allProperties(doc)) {
      for (const i of p['identifiers'] as Array<{ type: string; value: string }>)
        this.identifiersSeen.set(`${i.type}\u0000${i.value}`, i);
      if (typeof p['property_id'] === 'string')
        this.idsSeen.set(`${domain}\u0000${p['property_id']}`, {
          publisher_domain: domain,
          property_id: p['property_id'],
        });
    }
  }

  private async publishBrand(db: Database, operator: string, doc: Json): Promise<void> {
    await publishBrandJson(db, operator, doc);
    this.brands.set(operator, doc);
  }

  private async markStale(db: Database, domain: string): Promise<void> {
    await db.transaction((tx) => markStale(tx, domain, 'adagents.json answered HTTP 404', new Date()));
    this.stale.add(domain);
  }

  private publisherDeclaring(identifier: { type: string; value: string }): string | undefined {
    const value =
      identifier.type === 'domain' || identifier.type === 'subdomain'
        ? identifier.value.toLowerCase()
        : identifier.value;
    const owners = [...this.adagents].filter(([, doc]) =>
      allProperties(doc).some((p) =>
        (p['identifiers'] as Array<{ type: string; value: string }>).some(
          (i) => i.type === identifier.type && i.value.toLowerCase() === value.toLowerCase(),
        ),
      ),
    );
    return owners.length > 0 ? this.r.pick(owners)[0] : undefined;
  }

  /** Agents a publisher's file names, and those of files whose selectors reach it. */
  private agentsNamedBy(publisher: string): string[] {
    const out = new Set<string>();
    for (const [domain, doc] of this.adagents) {
      for (const entry of doc['authorized_agents'] as Json[]) {
        const selectors = (entry['publisher_properties'] as Json[] | undefined) ?? [];
        if (domain === publisher || selectors.some((s) => s['publisher_domain'] === publisher))
          out.add(String(entry['url']).toLowerCase());
      }
    }
    return [...out];
  }

  // Documents.

  private adagentsJson(domain: string): Json {
    const properties = Array.from({ length: this.r.int(1, 5) }, () => this.property(domain));
    const authorized_agents = Array.from({ length: this.r.int(1, 5) }, () => this.grant(properties));
    // An agent with two paths to the same properties, on different terms: either may be the one
    // the operator confirms.
    const ids = properties.flatMap((p) => (typeof p['property_id'] === 'string' ? [p['property_id']] : []));
    if (ids.length > 0 && this.r.chance(0.4)) {
      const first = this.r.pick(authorized_agents);
      const delegation_type = this.r.pick(delegations.filter((d) => d !== first['delegation_type']));
      authorized_agents.push({
        url: first['url'],
        authorized_for: 'Second path',
        authorization_type: 'property_ids',
        property_ids: [...new Set(ids)],
        delegation_type,
      });
    }
    return { properties, authorized_agents };
  }

  private property(domain: string): Json {
    const type = this.r.pick(propertyTypes);
    const pools = identifierPools[type];
    const identifiers = Array.from({ length: this.r.int(1, 2) }, (_, n) => {
      // A site is often its publisher's own domain.
      if (type === 'website' && n === 0 && this.r.chance(0.4)) return { type: 'domain', value: domain };
      const pool = this.r.pick(pools);
      const value = this.r.pick(pool.values);
      return {
        type: pool.type,
        value: pool.type === 'domain' && this.r.chance(0.08) ? value.replace(/^./, (c) => c.toUpperCase()) : value,
      };
    });
    const property: Json = { property_type: type, name: `Property ${++this.names}`, identifiers };
    if (this.r.chance(0.8)) property['property_id'] = this.r.pick(propertyIds);
    const chosen = this.r.some(tags, 0, 2);
    if (chosen.length > 0) property['tags'] = chosen;
    return property;
  }

  private grant(properties: Json[]): Json {
    const base: Json = {
      url: this.r.chance(0.1)
        ? this.r.pick(agentUrls).replace('https://sales.', 'https://Sales.')
        : this.r.pick(agentUrls),
      authorized_for: 'Inventory',
    };
    if (this.r.chance(0.75)) base['delegation_type'] = this.r.pick(delegations);
    const ownIds = properties.flatMap((p) => (typeof p['property_id'] === 'string' ? [p['property_id']] : []));
    switch (this.r.pick(['property_ids', 'property_tags', 'inline_properties', 'publisher_properties'])) {
      case 'property_ids':
        return {
          ...base,
          authorization_type: 'property_ids',
          property_ids: [...new Set(this.r.some([...ownIds, ...propertyIds], 1, 3))],
        };
      case 'property_tags':
        return { ...base, authorization_type: 'property_tags', property_tags: this.r.some(tags, 1, 2) };
      case 'inline_properties':
        return {
          ...base,
          authorization_type: 'inline_properties',
          properties: Array.from({ length: this.r.int(1, 2) }, () => this.property('inline.example')),
        };
      default:
        return {
          ...base,
          authorization_type: 'publisher_properties',
          publisher_properties: Array.from({ length: this.r.int(1, 2) }, () => this.selector()),
        };
    }
  }

  private selector(): Json {
    const publisher_domain = this.r.chance(0.9) ? this.r.pick(publisherDomains) : this.r.pick(silentDomains);
    const roll = this.r.next();
    if (roll < 0.3) return { publisher_domain, selection_type: 'all' };
    if (roll < 0.65) return { publisher_domain, selection_type: 'by_id', property_ids: this.r.some(propertyIds, 1, 3) };
    return { publisher_domain, selection_type: 'by_tag', property_tags: this.r.some(tags, 1, 2) };
  }

  private mutated(doc: Json, domain: string): Json {
    const properties = structuredClone(doc['properties'] as Json[]);
    let grants = structuredClone(doc['authorized_agents'] as Json[]);
    for (let n = this.r.int(1, 3); n > 0; n--) {
      const roll = this.r.int(0, 6);
      if (roll === 0 && grants.length > 1) grants.splice(this.r.int(0, grants.length - 1), 1);
      else if (roll === 1) grants.push(this.grant(properties));
      else if (roll === 2) {
        const g = this.r.pick(grants);
        if (this.r.chance(0.25)) delete g['delegation_type'];
        else g['delegation_type'] = this.r.pick(delegations);
      } else if (roll === 3) properties.push(this.property(domain));
      else if (roll === 4 && properties.length > 1) properties.splice(this.r.int(0, properties.length - 1), 1);
      else if (roll === 5) {
        const p = this.r.pick(properties);
        p['tags'] = this.r.some(tags, 1, 2);
      } else grants = [this.grant(properties), ...grants.slice(1)];
    }
    return { properties, authorized_agents: grants };
  }

  private brandJson(operator: string, declarable: Json[]): Json {
    const brands = Array.from({ length: this.r.int(1, 2) }, (_, j) => ({
      id: `brand_${j}`,
      names: [{ en: `Brand ${j} of ${operator}` }],
      url: `https://b${j}.${operator}/`,
      properties: Array.from({ length: this.r.int(3, 14) }, () => this.declaredProperty(declarable)),
    }));
    return { house: { domain: operator, name: `House of ${operator}`, agents: this.operatorAgents() }, brands };
  }

  private operatorAgents(): Json[] {
    return this.r.some(agentUrls, 0, 4).map((url, k) => ({ type: 'sales', url, id: `agent_${k}` }));
  }

  /** Mostly a property some file lists, by one of its identifiers; else any identifier, now and then of another kind than the type says (which declares nothing). */
  private declaredProperty(declarable: Json[]): Json {
    let declared: Json;
    if (declarable.length > 0 && this.r.chance(0.7)) {
      const p = this.r.pick(declarable);
      declared = {
        type: p['property_type'],
        identifier: this.r.pick(p['identifiers'] as Array<{ value: string }>).value,
      };
    } else {
      const type = this.r.pick(propertyTypes);
      const pool = this.r.pick(identifierPools[this.r.chance(0.9) ? type : this.r.pick(propertyTypes)]);
      declared = { type, identifier: this.r.pick(pool.values) };
    }
    if (this.r.chance(0.8)) declared['relationship'] = this.r.pick(relationships);
    return declared;
  }

  private mutatedBrand(doc: Json, declarable: Json[]): Json {
    const next = structuredClone(doc) as { house: { agents: Json[] }; brands: Array<{ properties: Json[] }> };
    for (let n = this.r.int(1, 3); n > 0; n--) {
      const roll = this.r.int(0, 4);
      const brand = this.r.pick(next.brands);
      if (roll === 0) next.house.agents = this.operatorAgents();
      else if (roll === 1) brand.properties.push(this.declaredProperty(declarable));
      else if (roll === 2 && brand.properties.length > 1)
        brand.properties.splice(this.r.int(0, brand.properties.length - 1), 1);
      else this.r.pick(brand.properties)['relationship'] = this.r.pick(relationships);
    }
    return next as unknown as Json;
  }
}

/** A file's properties, inline ones included: they join the publisher's catalog too. */
function allProperties(doc: Json): Json[] {
  const inline = (doc['authorized_agents'] as Json[]).flatMap((g) =>
    g['authorization_type'] === 'inline_properties' ? (g['properties'] as Json[]) : [],
  );
  return [...(doc['properties'] as Json[]), ...inline];
}
