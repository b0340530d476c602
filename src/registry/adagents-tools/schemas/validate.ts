import { Type, type Static } from 'typebox';
import { Domain } from '../../../protocol/wire/common.ts';
import { exampleAgent, exampleDomain, exampleUrl, FreeObject, Judged, nullable, Timestamp } from './common.ts';

/** `POST /api/adagents/validate`: a file judged, by domain or as given. */

export const ValidateBody = Type.Object(
  {
    domain: Type.Optional(Domain),
    document: Type.Optional(
      FreeObject('An adagents.json to check as given (nothing is fetched but, with check_agents, its agents).'),
    ),
    check_agents: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Also ask each agent URL (at most 20, 3 s each) whether it answers; one that does not is an `agent_unreachable` warning.',
      }),
    ),
  },
  {
    description: 'Exactly one of `domain` and `document`.',
    // No example holds a `properties` list: @fastify/swagger reads any such key in a body schema's examples as a schema's properties and mangles it.
    examples: [
      { domain: exampleDomain, check_agents: true },
      { document: { authoritative_location: 'https://network.example/adagents/dailyplanet.json' } },
    ],
  },
);
export type ValidateBody = Static<typeof ValidateBody>;

const AgentReach = Type.Object(
  {
    url: Type.String(),
    reachable: Type.Boolean({ description: 'Any HTTP answer counts (an MCP endpoint may answer a GET with 405).' }),
    status: nullable(Type.Integer(), 'The HTTP status it answered.'),
    latency_ms: nullable(Type.Integer(), 'Time to its answer.'),
    problem: nullable(Type.String(), 'Why it did not answer.'),
  },
  { examples: [{ url: exampleAgent, reachable: true, status: 405, latency_ms: 38, problem: null }] },
);

const Source = Type.Object(
  {
    type: Type.Union([Type.Literal('domain'), Type.Literal('document')]),
    domain: nullable(Type.String(), 'The normalized domain, when one was fetched.'),
    url: nullable(Type.String(), 'Where the file judged was read (or the address that failed).'),
    chain: Type.Array(Type.String(), {
      description: 'Every address read, in order: the well-known address, then each authoritative_location followed.',
    }),
  },
  { examples: [{ type: 'domain', domain: exampleDomain, url: exampleUrl, chain: [exampleUrl] }] },
);

const exampleFindings = {
  valid: true,
  errors: [],
  warnings: [
    {
      code: 'last_updated_missing',
      message: 'is missing; readers cannot tell how current the file is',
      path: '/last_updated',
    },
  ],
};
const exampleReach = { url: exampleAgent, reachable: true, status: 405, latency_ms: 38, problem: null };

export const ValidationReport = Type.Object(
  {
    ...Judged.properties,
    source: Source,
    agents: Type.Optional(
      Type.Array(AgentReach, { description: 'With check_agents: how each distinct agent URL answered.' }),
    ),
    // The protocol's registry client reads this envelope (validateAdagents).
    success: Type.Literal(true, { description: 'The check ran (a file with errors is still a successful check).' }),
    data: Type.Object(
      {
        domain: nullable(Type.String(), 'The normalized domain; null for an inline document.'),
        found: Type.Boolean({
          description:
            'A file was read: the domain answered its adagents.json (or a pointer target) with content, valid or not; always true for an inline document.',
        }),
        validation: Type.Intersect(
          [
            Judged,
            Type.Object({
              url: nullable(Type.String(), 'Where the file judged was read.'),
              chain: Type.Array(Type.String()),
            }),
          ],
          {
            description: 'The same findings, with where the file was read.',
          },
        ),
        agent_cards: Type.Optional(
          Type.Array(AgentReach, { description: 'With check_agents: how each agent answered (as `agents`).' }),
        ),
      },
      { description: 'The report as the protocol’s registry client reads it.' },
    ),
    timestamp: Timestamp,
  },
  {
    description: 'An adagents.json judged.',
    examples: [
      {
        ...exampleFindings,
        source: { type: 'domain', domain: exampleDomain, url: exampleUrl, chain: [exampleUrl] },
        agents: [exampleReach],
        success: true,
        data: {
          domain: exampleDomain,
          found: true,
          validation: { ...exampleFindings, url: exampleUrl, chain: [exampleUrl] },
          agent_cards: [exampleReach],
        },
        timestamp: '2026-03-01T12:00:00.000Z',
      },
    ],
  },
);
