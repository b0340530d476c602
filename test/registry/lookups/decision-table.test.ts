import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AuthorizationIndex, authorizationStatus } from '../../../src/registry/lookups/index.ts';
import { checkByRecords, type CheckRequest } from '../../../src/registry/lookups/check.ts';
import { Random } from '../../support/random.ts';

/**
 * The decision table (decision-table.ts: the check on numbers, what a check asks at a million
 * properties) against the same check worked out from the index's records (`checkByRecords`), on
 * random graphs built and then changed event by event: shared identifiers, grants covering all,
 * some ids, tags or single properties of their own or another publisher, stale properties and
 * files, revocations, merges, and more delegation names than the table has bits. A failure names
 * its seed; DECISION_SEED replays it.
 */

const seed = Number(process.env['DECISION_SEED'] ?? 20261124);
const publishers = Array.from({ length: 12 }, (_, i) => `pub${i}.example`);
const agents = Array.from({ length: 6 }, (_, i) => `https://agent${i}.example/mcp`);
// Past the thirty names the table gives bits to, several share one: those checks must still agree.
const customs = Array.from({ length: 40 }, (_, i) => `custom_${i}`);
const delegations: Array<string | null> = ['direct', 'delegated', 'ad_network', null, ...customs];
const relationships = ['owned', 'direct', 'delegated', 'ad_network', 'custom_3', 'custom_35', 'custom_36'];
const tags = ['news', 'sports', 'premium'];
const identifierTypes = ['domain', 'subdomain', 'ios_bundle', 'roku_store_id'];

function world(random: Random) {
  const rids: string[] = [];
  const grantIds: string[] = [];
  const identifier = () => {
    const type = random.pick(identifierTypes);
    // A small pool of values: several properties end up under one identifier.
    const value = `v${random.int(0, 40)}.example`;
    return { type, value: type === 'domain' && random.chance(0.3) ? value.toUpperCase() : value };
  };
  const property = (rid: string) => ({
    property_rid: rid,
    publisher_domain: random.pick(publishers),
    identifiers: Array.from({ length: random.int(1, 3) }, identifier),
    property: {
      property_id: `prop_${random.int(0, 8)}`,
      property_type: 'website',
      name: rid,
      tags: random.some(tags, 0, 2),
    },
    status: random.chance(0.1) ? 'stale' : 'active',
    operator_declarations: Array.from({ length: random.int(0, 3) }, () => ({
      operator_domain: `op${random.int(0, 3)}.example`,
      brand_id: 'op',
      relationship: random.pick(relationships),
      agents: random.some(agents, 1, 3),
    })),
  });
  const grant = (id: string) => {
    const agent = random.pick(agents);
    const delegation = random.chance(0.6) ? random.pick(delegations.slice(0, 4)) : random.pick(delegations);
    return {
      id,
      publisher_domain: random.pick(publishers),
      agent_url: agent,
      agent_url_canonical: agent,
      authorization_type: 'property_ids',
      ...(delegation === null ? {} : { delegation_type: delegation }),
      scopes: Array.from({ length: random.int(1, 3) }, () => {
        const kind = random.pick(['all', 'property_id', 'tag', 'rid', 'signal_id'] as const);
        const value =
          kind === 'property_id'
            ? `prop_${random.int(0, 8)}`
            : kind === 'tag'
              ? random.pick(tags)
              : kind === 'rid' && rids.length > 0
                ? random.pick(rids)
                : 'x';
        return { target_publisher: random.pick(publishers), kind, value };
      }),
    };
  };
  return {
    /** One random change, as the feed would carry it. */
    change(index: AuthorizationIndex): void {
      const r = random.next();
      if (r < 0.3) {
        const rid = rids.length > 0 && random.chance(0.3) ? random.pick(rids) : `r${rids.length}`;
        if (!rids.includes(rid)) rids.push(rid);
        index.apply('property.updated', property(rid));
      } else if (r < 0.6) {
        const id = grantIds.length > 0 && random.chance(0.3) ? random.pick(grantIds) : `g${grantIds.length}`;
        if (!grantIds.includes(id)) grantIds.push(id);
        index.apply('authorization.granted', grant(id));
      } else if (r < 0.7 && grantIds.length > 0) {
        index.apply('authorization.revoked', { id: random.pick(grantIds) });
      } else if (r < 0.8) {
        index.apply('publisher.adagents_changed', {
          publisher_domain: random.pick(publishers),
          status: random.chance(0.2) ? 'stale' : 'active',
        });
      } else if (r < 0.87 && rids.length > 0) {
        index.apply('property.stale', { property_rid: random.pick(rids) });
      } else if (r < 0.92 && rids.length > 0) {
        index.apply('property.merged', { alias_rid: random.pick(rids) });
      } else {
        index.apply('property.reactivated', property(rids.length > 0 ? random.pick(rids) : 'r0'));
      }
    },
    question(): CheckRequest {
      const claimed = random.chance(0.4)
        ? undefined
        : (random.pick(random.chance(0.5) ? delegations.slice(0, 4) : delegations) ?? undefined);
      const agent = random.chance(0.95) ? random.pick(agents) : 'https://stranger.example/mcp';
      if (random.chance(0.75)) {
        const { type, value } = identifier();
        return {
          agent,
          property: { identifier: { type, value: random.chance(0.1) ? `pub${random.int(0, 13)}.example` : value } },
          delegation_type: claimed,
        };
      }
      return {
        agent,
        property: {
          publisher_domain: random.chance(0.9) ? random.pick(publishers) : 'nobody.example',
          property_id: `prop_${random.int(0, 9)}`,
        },
        delegation_type: claimed,
      };
    },
  };
}

it('the decision table answers every check as the records do, on random graphs as they change', () => {
  let cases = 0;
  for (let graph = 0; graph < 20; graph++) {
    const random = new Random(seed + graph);
    const index = new AuthorizationIndex();
    // Every name seen first, in order: the last ten share the overflow bit.
    customs.forEach((name, i) =>
      index.apply('authorization.granted', {
        id: `names${i}`,
        publisher_domain: 'names.example',
        agent_url: agents[0],
        authorization_type: 'property_ids',
        delegation_type: name,
        scopes: [{ target_publisher: 'names.example', kind: 'all', value: '' }],
      }),
    );
    const w = world(random);
    for (let step = 0; step < 30; step++) {
      for (let i = 0; i < 15; i++) w.change(index);
      for (let q = 0; q < 40; q++) {
        const question = w.question();
        const decided = authorizationStatus(index, question);
        const { status, violation } = checkByRecords(index, question);
        cases++;
        assert.deepEqual(
          { status: decided.status, code: decided.code },
          { status, code: violation?.code },
          `seed ${seed + graph}, step ${step}: ${JSON.stringify(question)}`,
        );
      }
    }
  }
  assert.ok(cases >= 20_000);
});
