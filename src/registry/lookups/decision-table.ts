import type { Declaration, IndexedProperty } from './index-records.ts';
import { PairTable } from './pair-table.ts';
import { hashOf, StringTable, tagOf } from './string-table.ts';

/**
 * The decision of a check in typed arrays: what `checkProperty` (check.ts) works out from the
 * index's records, here reduced to numbers so that, at a million properties, a check reads a handful
 * of cache lines rather than a dozen scattered objects. The index keeps it in step with its records
 * on every change (authorization-index.ts); check.ts explains a decision from the records, and the
 * tests hold the two to the same answers.
 *
 * Numbers: each property, publisher node and agent URL gets a small integer; each delegation type
 * or relationship a bit (`null`, no delegation stated, is bit 0), so "which delegations cover this
 * property" and "which does the operator confirm" are masks and matching is an AND.
 */

/** A decision's outcome, numbered by how good it is (check.ts ranks candidate properties by it). */
export const Outcome = Object.freeze({
  Authorized: 0,
  Stale: 1,
  RelationshipMismatch: 2,
  OperatorNotDeclared: 3,
  DelegationMismatch: 4,
  AgentNotAuthorized: 5,
  PropertyNotFound: 6,
  PublisherFileUnknown: 7,
  /** The masks cannot tell (more distinct delegation names than bits): ask the records. */
  Undecided: 8,
});
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

const NULL_BIT = 1;
/** Shared by every name past the thirtieth: a mask holding it cannot decide. */
const OVERFLOW_BIT = 1 << 30;

/** Identifier types are kinds of key in `identifiers`; past 126 of them, one kind holds type and value. */
const OTHER_IDENTIFIER_KIND = 127;

export interface CoverageLike {
  all: boolean;
  delegationType: string | null;
}

/** Whether a coverage of some properties covers the numbered one (the records know). */
export type Covers = (c: CoverageLike, property: number) => boolean;

export class DecisionTable {
  /** (identifier type, normalized value) → a property number, or a list of them in `shared`. */
  private readonly identifiers = new StringTable();
  /** (publisher number, property_id) → property number. */
  private readonly propertyIds = new StringTable();
  /** Publisher domain → its number. */
  private readonly publishers = new StringTable();
  /** (publisher number, agent number) → [mask of delegations covering every property, partial coverages' list + 1 or 0]. */
  private readonly coverage = new PairTable();
  private readonly partials: Array<readonly CoverageLike[] | undefined> = [];
  private readonly freePartials: number[] = [];
  /** Per property: publisher number, its declaration set's offset in `declarationPool`, stale (1) or not (0), unused. */
  private rows = new Int32Array(4 * 1024);
  /** Per publisher number: 1 its file is known, 2 stale. */
  private publisherFlags = new Uint8Array(1024);
  private readonly identifierKinds = new Map<string, number>();
  private readonly agents = new Map<string, number>();
  private readonly bits = new Map<string, number>();
  /** Declaration list (interned, so by identity) → where its set is in `declarationPool`: a count, then [agent, confirm mask]…. */
  private readonly declarationSets = new Map<readonly Declaration[], number>();
  private declarationPool = new Int32Array(1024);
  private declarationPoolUsed = 0;
  /** Several properties under one identifier (rare): the list, found by -(value + 2). */
  private readonly shared: Array<number[] | undefined> = [];
  private readonly freeShared: number[] = [];

  // Numbers.

  agentNumber(agent: string): number {
    let n = this.agents.get(agent);
    if (n === undefined) this.agents.set(agent, (n = this.agents.size));
    return n;
  }

  /** The bit of a delegation type (or a relationship naming one); `null` is NULL_BIT. */
  bit(name: string | null): number {
    if (name === null) return NULL_BIT;
    let bit = this.bits.get(name);
    if (bit === undefined) {
      bit = this.bits.size < 29 ? 1 << (this.bits.size + 1) : OVERFLOW_BIT;
      this.bits.set(name, bit);
    }
    return bit;
  }

  // Writes, called by the index as its records change.

  setPublisher(number: number, domain: string, fileKnown: boolean, stale: boolean): void {
    if (number >= this.publisherFlags.length) this.publisherFlags = grow(this.publisherFlags, number);
    this.publisherFlags[number] = (fileKnown ? 1 : 0) | (stale ? 2 : 0);
    this.publishers.set(0, 0, domain, number);
  }

  forgetPublisher(number: number, domain: string): void {
    this.publisherFlags[number] = 0;
    this.publishers.delete(0, 0, domain);
  }

  setProperty(
    number: number,
    publisher: number,
    property: IndexedProperty,
    identifiers: ReadonlyArray<{ type: string; value: string }>,
  ): void {
    if (number * 4 + 4 > this.rows.length) this.rows = grow(this.rows, number * 4 + 4);
    const declarations = this.declarationSet(property.declarations);
    const stale = property.stale ? 1 : 0;
    this.rows[number * 4] = publisher;
    this.rows[number * 4 + 1] = declarations;
    this.rows[number * 4 + 2] = stale;
    // Each key also carries the row, so a check need not fetch it.
    for (const { type, value } of identifiers) this.addIdentifier(type, value, number, publisher, declarations, stale);
    if (property.propertyId !== null)
      this.propertyIds.set(0, publisher, property.propertyId, number, publisher, declarations, stale);
  }

  forgetProperty(
    number: number,
    publisher: number,
    property: IndexedProperty,
    identifiers: ReadonlyArray<{ type: string; value: string }>,
  ): void {
    for (const { type, value } of identifiers) this.removeIdentifier(type, value, number);
    if (property.propertyId !== null && this.propertyIds.get(0, publisher, property.propertyId) === number) {
      this.propertyIds.delete(0, publisher, property.propertyId);
    }
  }

  /** What an agent's grants cover at a publisher, as the index now holds it (none: forgotten). */
  setCoverage(publisher: number, agent: number, coverages: readonly CoverageLike[]): void {
    const at = this.coverage.find(publisher, agent);
    if (at >= 0) this.releasePartials(this.coverage.values[at + 1]!);
    if (coverages.length === 0) return this.coverage.delete(publisher, agent);
    let all = 0;
    const partial: CoverageLike[] = [];
    for (const c of coverages) {
      if (c.all) all |= this.bit(c.delegationType);
      else partial.push(c);
    }
    this.coverage.set(publisher, agent, all, partial.length === 0 ? 0 : this.holdPartials(partial) + 1);
  }

  // Reads.

  /**
   * The decision for a property named by a normalized identifier, as `outcome + 16 * (property +
   * 1)` for the best of the properties answering to it (check.ts ranks them so); -1 when none does.
   */
  decideIdentifier(
    type: string,
    normalizedValue: string,
    agent: string,
    claimed: string | undefined,
    covers: Covers,
  ): number {
    const kind = this.identifierKinds.get(type);
    if (kind === undefined)
      return this.decideKey(
        this.identifiers,
        OTHER_IDENTIFIER_KIND,
        0,
        `${type}\u0000${normalizedValue}`,
        agent,
        claimed,
        covers,
      );
    return this.decideKey(this.identifiers, kind, 0, normalizedValue, agent, claimed, covers);
  }

  /** The same for a publisher's property id. */
  decidePropertyId(
    publisher: number,
    propertyId: string,
    agent: string,
    claimed: string | undefined,
    covers: Covers,
  ): number {
    return this.decideKey(this.propertyIds, 0, publisher, propertyId, agent, claimed, covers);
  }

  private decideKey(
    table: StringTable,
    kind: number,
    owner: number,
    text: string,
    agent: string,
    claimed: string | undefined,
    covers: Covers,
  ): number {
    const hash = hashOf(kind, owner, text);
    const tag = tagOf(kind, owner);
    const agentNo = this.agents.get(agent) ?? -1;
    const slots = table.slots;
    for (let at = table.next(hash, tag, -1); at >= 0; at = table.next(hash, tag, at)) {
      const value = slots[at + 1]!;
      const length = table.arena[slots[at + 2]!]!;
      // Decided from the slot before its key's text is confirmed, so the reads of both (and of
      // the coverage and declarations) go out together rather than one after another.
      const outcome =
        value >= 0
          ? this.decideRow(slots[at + 4]!, slots[at + 5]!, slots[at + 6]!, value, agentNo, claimed, covers)
          : 0;
      if (length !== (text.length & 0xffff) || !table.holds(at, text)) continue;
      return value >= 0
        ? outcome + 16 * (value + 1)
        : this.decideShared(this.shared[-(value + 2)]!, agentNo, claimed, covers);
    }
    return -1;
  }

  private decideShared(
    properties: readonly number[],
    agentNo: number,
    claimed: string | undefined,
    covers: Covers,
  ): number {
    const rows = this.rows;
    let best = -1;
    for (const property of properties) {
      const outcome = this.decideRow(
        rows[property * 4]!,
        rows[property * 4 + 1]!,
        rows[property * 4 + 2]!,
        property,
        agentNo,
        claimed,
        covers,
      );
      if (outcome === Outcome.Undecided) return outcome + 16 * (property + 1);
      if (best < 0 || outcome < best % 16) best = outcome + 16 * (property + 1);
      if (outcome === Outcome.Authorized) break;
    }
    return best;
  }

  /** The publisher number of a domain whose adagents.json is known, or -1. */
  knownPublisher(domain: string): number {
    const n = this.publishers.get(0, 0, domain);
    return n >= 0 && (this.publisherFlags[n]! & 1) !== 0 ? n : -1;
  }

  /**
   * check.ts `checkProperty`, on numbers: stale first, then the publisher side (coverage, the claimed
   * delegation), then the operator side (a declaration listing the agent with a relationship matching
   * a delegation the check is for). `covers` answers for a grant covering only some properties.
   */
  private decideRow(
    publisher: number,
    declarations: number,
    stale: number,
    property: number,
    agentNo: number,
    claimed: string | undefined,
    covers: Covers,
  ): Outcome {
    const operators = this.declarationPool[declarations]!;
    if (stale !== 0 || (this.publisherFlags[publisher]! & 2) !== 0) return Outcome.Stale;
    if (agentNo < 0) return Outcome.AgentNotAuthorized;
    const at = this.coverage.find(publisher, agentNo);
    if (at < 0) return Outcome.AgentNotAuthorized;
    let covering = this.coverage.values[at]!;
    const partialRef = this.coverage.values[at + 1]!;
    if (partialRef !== 0)
      for (const c of this.partials[partialRef - 1]!) if (covers(c, property)) covering |= this.bit(c.delegationType);
    if (covering === 0) return Outcome.AgentNotAuthorized;
    let wanted: number;
    if (claimed === undefined) {
      // Unclaimed: any delegation the publisher states; none stated (only null) needs no match.
      wanted = covering & ~NULL_BIT;
    } else {
      // A name no grant ever stated has no bit: nothing covering states it.
      wanted = this.bits.get(claimed) ?? 0;
      if (wanted === OVERFLOW_BIT) return Outcome.Undecided;
      if ((covering & wanted) === 0) return Outcome.DelegationMismatch;
    }
    const confirms = operators === 0 ? -1 : this.confirmsOf(declarations, agentNo);
    if (confirms === -1) return Outcome.OperatorNotDeclared;
    if (wanted === 0 || (confirms & wanted & ~OVERFLOW_BIT) !== 0) return Outcome.Authorized;
    // Two names sharing the overflow bit may or may not be the same name.
    return (wanted & confirms & OVERFLOW_BIT) !== 0 ? Outcome.Undecided : Outcome.RelationshipMismatch;
  }

  /** The mask of delegations an operator declaring the property confirms for the agent; -1 when none lists it. */
  private confirmsOf(offset: number, agent: number): number {
    const pool = this.declarationPool;
    const end = offset + 2 * pool[offset]! + 1;
    for (let i = offset + 1; i < end; i += 2) if (pool[i] === agent) return pool[i + 1]!;
    return -1;
  }

  // Bookkeeping.

  private declarationSet(declarations: readonly Declaration[]): number {
    const known = this.declarationSets.get(declarations);
    if (known !== undefined) return known;
    const confirms = new Map<number, number>();
    for (const d of declarations) {
      // relationshipMatches (check.ts): `owned` also confirms `direct`; any relationship confirms "no delegation stated".
      const bit = this.bit(d.relationship) | (d.relationship === 'owned' ? this.bit('direct') : 0);
      for (const a of d.agents) {
        const n = this.agentNumber(a);
        confirms.set(n, (confirms.get(n) ?? NULL_BIT) | bit);
      }
    }
    const needed = this.declarationPoolUsed + 1 + 2 * confirms.size;
    if (needed > this.declarationPool.length) this.declarationPool = grow(this.declarationPool, needed);
    const offset = this.declarationPoolUsed;
    this.declarationPool[offset] = confirms.size;
    let i = offset + 1;
    for (const [agent, mask] of confirms) {
      this.declarationPool[i++] = agent;
      this.declarationPool[i++] = mask;
    }
    this.declarationPoolUsed = needed;
    this.declarationSets.set(declarations, offset);
    return offset;
  }

  private identifierKey(type: string): number {
    let kind = this.identifierKinds.get(type);
    if (kind === undefined && this.identifierKinds.size < OTHER_IDENTIFIER_KIND)
      this.identifierKinds.set(type, (kind = this.identifierKinds.size));
    return kind ?? OTHER_IDENTIFIER_KIND;
  }

  private addIdentifier(
    type: string,
    value: string,
    property: number,
    publisher: number,
    declarations: number,
    stale: number,
  ): void {
    const kind = this.identifierKey(type);
    const text = kind === OTHER_IDENTIFIER_KIND ? `${type}\u0000${value}` : value;
    const known = this.identifiers.get(kind, 0, text);
    if (known === -1 || known === property)
      return this.identifiers.set(kind, 0, text, property, publisher, declarations, stale);
    if (known >= 0) return this.identifiers.set(kind, 0, text, -(this.holdShared([known, property]) + 2));
    const list = this.shared[-(known + 2)]!;
    if (!list.includes(property)) list.push(property);
  }

  private removeIdentifier(type: string, value: string, property: number): void {
    const kind = this.identifierKey(type);
    const text = kind === OTHER_IDENTIFIER_KIND ? `${type}\u0000${value}` : value;
    const known = this.identifiers.get(kind, 0, text);
    if (known === property) return this.identifiers.delete(kind, 0, text);
    if (known >= -1) return;
    const index = -(known + 2);
    const rest = this.shared[index]!.filter((p) => p !== property);
    if (rest.length > 1) return void (this.shared[index] = rest);
    this.shared[index] = undefined;
    this.freeShared.push(index);
    const last = rest[0]!;
    this.identifiers.set(kind, 0, text, last, this.rows[last * 4]!, this.rows[last * 4 + 1]!, this.rows[last * 4 + 2]!);
  }

  private holdShared(list: number[]): number {
    const index = this.freeShared.pop() ?? this.shared.length;
    this.shared[index] = list;
    return index;
  }

  private holdPartials(list: CoverageLike[]): number {
    const index = this.freePartials.pop() ?? this.partials.length;
    this.partials[index] = list;
    return index;
  }

  private releasePartials(ref: number): void {
    if (ref === 0) return;
    this.partials[ref - 1] = undefined;
    this.freePartials.push(ref - 1);
  }
}

function grow<T extends Int32Array | Uint8Array>(array: T, needed: number): T {
  let length = array.length * 2;
  while (length <= needed) length *= 2;
  const grown = new (array.constructor as new (n: number) => T)(length);
  grown.set(array);
  return grown;
}
