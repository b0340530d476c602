import { Type, type Static } from 'typebox';

/**
 * Wire schemas of the probing endpoints (spec section 4, `/api/public/discover-agent`,
 * `agent-formats`, `agent-products`), whose parameters and answers the spec leaves "not shown".
 * Agents' own documents (the A2A card, get_ap_capabilities, the task answers) pass through as
 * the agent sent them, with the published schema's findings beside the task answers.
 */

const exampleAgent = 'https://sales.meridian.example/mcp';
const probedAt = '2026-01-12T09:30:00.000Z';

export const maxAgentUrl = 2048;

const AgentUrl = Type.String({
  minLength: 1,
  maxLength: maxAgentUrl,
  description:
    'The agent: its MCP endpoint, or where its A2A card sits beside (`<url>/.well-known/agent-card.json`, `/mcp` or `/a2a` dropped). http or https, no credentials.',
  examples: [exampleAgent],
});

export const AgentQuery = Type.Object({ url: AgentUrl });
export type AgentQuery = Static<typeof AgentQuery>;

export const AgentProductsQuery = Type.Object({
  url: AgentUrl,
  brief: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'What the buyer wants, in words: sent as get_products’ `brief` (buying_mode `brief`). Without it (as the protocol’s registry client asks) the agent is asked for its catalog: buying_mode `wholesale`, which takes no brief.',
      examples: ['Premium video for a coffee launch in the US, March'],
    }),
  ),
});
export type AgentProductsQuery = Static<typeof AgentProductsQuery>;

/** The credential header, so it is in the document; the value is sent to the agent and nowhere else. */
export const AgentCredentialHeaders = Type.Object({
  'ap-agent-authorization': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        'Sent to the agent as its `Authorization` header (e.g. `Bearer <agent token>`), for agents that ask for a credential. Optional: without it (as the protocol’s registry client calls) the agent is asked anonymously. Never stored or logged; answers are cached per credential.',
      examples: ['Bearer ap-test-deployment-public'],
    }),
  ),
});
export type AgentCredentialHeaders = Static<typeof AgentCredentialHeaders>;

const FreeObject = (description: string) => Type.Object({}, { additionalProperties: true, description });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

const Tool = Type.Object(
  {
    name: Type.String(),
    description: Type.Optional(Type.String()),
    input_schema: Type.Optional(FreeObject('The JSON Schema of the tool’s arguments, as the agent lists it.')),
  },
  {
    examples: [
      {
        name: 'get_products',
        description: 'Products matching a brief.',
        input_schema: { type: 'object', properties: { brief: { type: 'string' } } },
      },
    ],
  },
);

const McpFinding = Type.Object(
  {
    url: Type.String({ description: 'The MCP endpoint that answered `initialize`.' }),
    server: Type.Object(
      { name: Type.Optional(Type.String()), version: Type.Optional(Type.String()) },
      { description: 'What the server named itself in `initialize`.' },
    ),
    protocol_version: nullable(Type.String(), 'The MCP protocol version agreed.'),
    tools: Type.Array(Tool, { description: '`tools/list`: every tool, with its input schema.' }),
  },
  { description: 'The agent over MCP.' },
);

const A2aFinding = Type.Object(
  {
    card_url: Type.String({
      description: 'Where the agent card was read (`agent-card.json`, else the A2A 0.3 `agent.json`).',
    }),
    card: FreeObject('The A2A agent card as the agent serves it (its skills are its tasks).'),
  },
  { description: 'The agent over A2A.' },
);

export const AgentDiscovery = Type.Object(
  {
    // The protocol's registry client reads name, description, protocols, type, stats, tools_count and tools (discoverAgent).
    name: Type.String({
      description: 'What the agent calls itself: its A2A card’s name, else its MCP server’s, else the URL’s host.',
    }),
    description: Type.Optional(Type.String({ description: 'Its A2A card’s description, when it has one.' })),
    type: Type.String({
      description:
        'What kind of agent it is, as the registry’s catalog types them (sales, signals, creative, governance, brand, si), from its get_ap_capabilities `supported_protocols`, else from the tasks it lists; `unknown` when neither says.',
    }),
    stats: Type.Object(
      {
        publisher_count: Type.Optional(
          Type.Integer({
            minimum: 0,
            description:
              'Publisher domains its capabilities say it represents (media_buy.portfolio.publisher_domains).',
          }),
        ),
      },
      { description: 'Counts the probe learned without calling further tasks.' },
    ),
    tools_count: Type.Integer({ minimum: 0, description: 'How many tasks it lists (MCP tools, else A2A skills).' }),
    tools: Type.Array(Type.Object({ name: Type.String(), description: Type.Optional(Type.String()) }), {
      description: 'The tasks it lists, by name (MCP tools, else A2A skills; input schemas under `mcp.tools`).',
    }),
    agent_url: Type.String({ description: 'The URL probed, in its canonical spelling.' }),
    protocols: Type.Array(Type.Union([Type.Literal('mcp'), Type.Literal('a2a')]), {
      description: 'The protocols the agent answered on, MCP first.',
    }),
    latency_ms: Type.Integer({ minimum: 0, description: 'Time to the agent’s first HTTP answer.' }),
    auth_required: Type.Boolean({
      description: 'Some request was answered 401: the agent asks for a credential (see `ap-agent-authorization`).',
    }),
    mcp: nullable(McpFinding, 'The agent over MCP; null when it does not answer `initialize` (see `problems.mcp`).'),
    a2a: nullable(A2aFinding, 'The agent over A2A; null when it serves no card (see `problems.a2a`).'),
    capabilities: nullable(
      FreeObject('The agent’s get_ap_capabilities answer, as it sent it.'),
      'get_ap_capabilities; null when the agent does not offer it or could not answer (see `problems.capabilities`).',
    ),
    problems: Type.Object(
      {
        mcp: Type.Optional(Type.String()),
        a2a: Type.Optional(Type.String()),
        capabilities: Type.Optional(Type.String()),
      },
      { description: 'Why a protocol was not found, or why an offered get_ap_capabilities gave no answer.' },
    ),
    probed_at: Type.String({
      format: 'date-time',
      description: 'When the agent was asked; answers are kept about a minute.',
    }),
  },
  {
    description: 'What an agent URL speaks and offers.',
    examples: [
      {
        name: 'Meridian sales',
        description: 'Display, video and CTV across the Meridian network.',
        type: 'sales',
        stats: { publisher_count: 12 },
        tools_count: 2,
        tools: [{ name: 'get_ap_capabilities' }, { name: 'get_products', description: 'Products matching a brief.' }],
        agent_url: exampleAgent,
        protocols: ['mcp', 'a2a'],
        latency_ms: 41,
        auth_required: false,
        mcp: {
          url: exampleAgent,
          server: { name: 'meridian-sales', version: '2.3.0' },
          protocol_version: '2025-06-18',
          tools: [
            { name: 'get_ap_capabilities', input_schema: { type: 'object' } },
            { name: 'get_products', input_schema: { type: 'object' } },
          ],
        },
        a2a: {
          card_url: 'https://sales.meridian.example/.well-known/agent-card.json',
          card: { name: 'Meridian sales', skills: [{ id: 'get_products', name: 'get_products' }] },
        },
        capabilities: { ap: { major_versions: [3] }, supported_protocols: ['media_buy'] },
        problems: {},
        probed_at: probedAt,
      },
    ],
  },
);

const Issue = Type.Object({
  path: Type.String({ description: 'JSON path into the answer, e.g. $.formats[0].format_id' }),
  message: Type.String(),
});

/** A task's answer as probed: the agent's payload and what the published schema says of it; and, as the protocol's registry client reads it, `success` and the payload's array at the top. */
function taskAnswer<K extends string>(task: string, schema: string, expected: K, example: Record<K, unknown[]>) {
  const list = Type.Array(Type.Unknown(), {
    description: `The answer’s \`${expected}\` (as in \`response\`), where the protocol’s registry client reads it.`,
  });
  const listed = { [expected]: list } as Record<K, typeof list>;
  return Type.Object(
    {
      success: Type.Literal(true, { description: 'The agent answered the task.' }),
      ...listed,
      agent_url: Type.String({ description: 'The URL probed, in its canonical spelling.' }),
      protocol: Type.Union([Type.Literal('mcp'), Type.Literal('a2a')], {
        description: 'The protocol the task was called over (MCP when the agent speaks both).',
      }),
      latency_ms: Type.Integer({ minimum: 0, description: `Time the ${task} call took.` }),
      response: FreeObject(`The agent’s ${task} answer as it sent it (its echoed \`context\` left out).`),
      schema_issues: Type.Array(Issue, {
        description: `Where the answer departs from the published ${schema} (at most 50); empty when it conforms.`,
      }),
      probed_at: Type.String({
        format: 'date-time',
        description: 'When the agent was asked; answers are kept about a minute.',
      }),
    },
    {
      description: `An agent’s ${task} answer.`,
      examples: [
        {
          success: true,
          ...example,
          agent_url: exampleAgent,
          protocol: 'mcp',
          latency_ms: 38,
          response: example,
          schema_issues: [],
          probed_at: probedAt,
        },
      ],
    },
  );
}

export const AgentFormats = taskAnswer(
  'list_creative_formats',
  'media-buy/list-creative-formats-response.json',
  'formats',
  {
    formats: [
      {
        format_id: { agent_url: 'https://creative.meridian.example/mcp', id: 'display_300x250' },
        name: 'Medium rectangle',
      },
    ],
  },
);

export const AgentProducts = taskAnswer('get_products', 'media-buy/get-products-response.json', 'products', {
  products: [
    {
      product_id: 'ctv-premium',
      name: 'Premium CTV',
      description: 'Prime-time streaming',
      delivery_type: 'guaranteed',
    },
  ],
});
