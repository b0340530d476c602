import type { Database } from '../../src/db/database.ts';
import { publishAdagents, publishBrandJson } from '../../test/support/authorization-world.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * A registry of a few hundred publishers for the lookups benchmark, written the way the crawler
 * writes (through the graph's projections), so `ap serve` builds its index from the real snapshot
 * and feed. 20 operators run 2 agents each; every publisher has a site, an iOS app and a CTV app
 * and authorizes 4 of the 40 agents in as many ways; the agents' operators declare what they sell
 * (one in three publishers' ad-network inventory goes undeclared, CTV is declared with the wrong
 * relationship), so the checks below answer every status for several reasons.
 */
export const PUBLISHERS = 300;
const OPERATORS = 20;
const AGENTS = OPERATORS * 2;

export const agentUrl = (a: number) => `https://sales.agent-${a}.example/mcp`;
const operatorDomain = (o: number) => `operator-${o}.example`;
const publisherDomain = (i: number) => `publisher-${i}.example`;
/** The agents publisher i authorizes, one per way of granting below. */
const agentsOf = (i: number) => [0, 1, 2, 3].map((j) => (i * 3 + j * 11) % AGENTS);

type Json = Record<string, unknown>;

function adagents(i: number): Json {
  const domain = publisherDomain(i);
  const [delegated, direct, network, ctv] = agentsOf(i).map(agentUrl) as [string, string, string, string];
  return {
    properties: [
      {
        property_id: 'site',
        property_type: 'website',
        name: `Publisher ${i}`,
        identifiers: [{ type: 'domain', value: domain }],
        tags: ['news'],
      },
      {
        property_id: 'ios_app',
        property_type: 'mobile_app',
        name: `Publisher ${i} for iOS`,
        identifiers: [{ type: 'ios_bundle', value: `com.publisher${i}.app` }],
        tags: ['news', 'app'],
      },
      {
        property_id: 'ctv',
        property_type: 'ctv_app',
        name: `Publisher ${i} TV`,
        identifiers: [{ type: 'roku_store_id', value: `publisher-${i}-roku` }],
        tags: ['ctv'],
      },
    ],
    authorized_agents: [
      {
        url: delegated,
        authorized_for: 'Display and app inventory',
        authorization_type: 'property_ids',
        property_ids: ['site', 'ios_app'],
        delegation_type: 'delegated',
      },
      {
        url: direct,
        authorized_for: 'All direct sales',
        authorization_type: 'property_tags',
        property_tags: ['news', 'ctv'],
        delegation_type: 'direct',
      },
      {
        url: network,
        authorized_for: 'App remnant',
        authorization_type: 'property_tags',
        property_tags: ['app'],
        delegation_type: 'ad_network',
      },
      {
        url: ctv,
        authorized_for: 'CTV',
        authorization_type: 'property_ids',
        property_ids: ['ctv'],
        delegation_type: 'delegated',
      },
    ],
  };
}

/** What each operator's brand.json declares: the properties its agents were granted. */
function brandProperties(): Json[][] {
  const declared: Json[][] = Array.from({ length: OPERATORS }, () => []);
  for (let i = 0; i < PUBLISHERS; i++) {
    const domain = publisherDomain(i);
    const [delegated, direct, network, ctv] = agentsOf(i).map((a) => declared[a >> 1]!) as [
      Json[],
      Json[],
      Json[],
      Json[],
    ];
    delegated.push(
      { type: 'website', identifier: domain, relationship: 'delegated' },
      { type: 'mobile_app', identifier: `com.publisher${i}.app`, relationship: 'delegated' },
    );
    direct.push(
      { type: 'website', identifier: domain, relationship: 'direct' },
      { type: 'ctv_app', identifier: `publisher-${i}-roku`, relationship: 'direct' },
    );
    if (i % 3 !== 0)
      network.push({ type: 'mobile_app', identifier: `com.publisher${i}.app`, relationship: 'ad_network' });
    ctv.push({ type: 'ctv_app', identifier: `publisher-${i}-roku`, relationship: 'direct' });
  }
  return declared;
}

export async function buildLookupWorld(db: Database): Promise<void> {
  const declared = brandProperties();
  for (let o = 0; o < OPERATORS; o++) {
    await publishBrandJson(db, operatorDomain(o), {
      house: {
        domain: operatorDomain(o),
        name: `Operator ${o}`,
        agents: [2 * o, 2 * o + 1].map((a) => ({ type: 'sales', url: agentUrl(a), id: `agent_${a}` })),
      },
      brands: [
        { id: `operator_${o}`, names: [{ en: `Operator ${o}` }], keller_type: 'master', properties: declared[o] },
      ],
    });
  }
  for (let i = 0; i < PUBLISHERS; i++) await publishAdagents(db, publisherDomain(i), adagents(i));
}

const checkPath = (query: Record<string, string>) =>
  `/api/registry/validate/property-authorization?${new URLSearchParams(query)}`;

/**
 * Checks in a fixed shuffled order, five per publisher: authorized by identifier and by
 * property_id, an agent whose grant does not reach the property, a claimed delegation the
 * publisher does not state, and an identifier no adagents.json declares.
 */
export function checkPaths(): string[] {
  const paths: string[] = [];
  for (let i = 0; i < PUBLISHERS; i++) {
    const [delegated, direct, network] = agentsOf(i).map(agentUrl) as [string, string, string];
    paths.push(
      checkPath({
        agent_url: delegated,
        identifier_type: 'domain',
        identifier_value: publisherDomain(i),
        delegation_type: 'delegated',
      }),
      checkPath({
        agent_url: direct,
        publisher_domain: publisherDomain(i),
        property_id: 'ctv',
        delegation_type: 'direct',
      }),
      checkPath({ agent_url: network, identifier_type: 'domain', identifier_value: publisherDomain(i) }),
      checkPath({
        agent_url: delegated,
        identifier_type: 'ios_bundle',
        identifier_value: `com.publisher${i}.app`,
        delegation_type: 'direct',
      }),
      checkPath({ agent_url: delegated, identifier_type: 'domain', identifier_value: `unknown-${i}.example` }),
    );
  }
  return shuffled(paths);
}

/** Every publisher's domain, and one unknown domain for every five known. */
export function domainPaths(): string[] {
  const paths: string[] = [];
  for (let i = 0; i < PUBLISHERS; i++) {
    paths.push(`/api/registry/lookup/domain/${publisherDomain(i)}`);
    if (i % 5 === 0) paths.push(`/api/registry/lookup/domain/unknown-${i}.example`);
  }
  return shuffled(paths);
}

/** Deterministic, so every run loads the same sequence. */
function shuffled<T>(items: T[]): T[] {
  const random = seededRandom(12345);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * For the change-to-visible part: publishers whose file grants or drops one agent, which its
 * operator's brand.json declares (delegated), so the check flips between authorized and unauthorized.
 */
export const liveAgent = 'https://sales.live-operator.example/mcp';
export const livePublisher = (k: number) => `live-${k}.example`;

export function liveAdagents(k: number, granted: boolean): Json {
  return {
    properties: [
      {
        property_id: 'site',
        property_type: 'website',
        name: `Live ${k}`,
        identifiers: [{ type: 'domain', value: livePublisher(k) }],
        tags: ['news'],
      },
    ],
    authorized_agents: [
      { url: agentUrl(0), authorization_type: 'property_ids', property_ids: ['site'], delegation_type: 'direct' },
      ...(granted
        ? [{ url: liveAgent, authorization_type: 'property_ids', property_ids: ['site'], delegation_type: 'delegated' }]
        : []),
    ],
  };
}

export async function buildLiveWorld(db: Database, publishers: number): Promise<void> {
  await publishBrandJson(db, 'live-operator.example', {
    house: {
      domain: 'live-operator.example',
      name: 'Live Operator',
      agents: [{ type: 'sales', url: liveAgent, id: 'live' }],
    },
    brands: [
      {
        id: 'live',
        names: [{ en: 'Live Operator' }],
        keller_type: 'master',
        properties: Array.from({ length: publishers }, (_, k) => ({
          type: 'website',
          identifier: livePublisher(k),
          relationship: 'delegated',
        })),
      },
    ],
  });
  for (let k = 0; k < publishers; k++) await publishAdagents(db, livePublisher(k), liveAdagents(k, false));
}

export const liveCheckPath = (k: number) =>
  checkPath({
    agent_url: liveAgent,
    identifier_type: 'domain',
    identifier_value: livePublisher(k),
    delegation_type: 'delegated',
  });
