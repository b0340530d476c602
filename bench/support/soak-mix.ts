import { checkPaths, domainPaths, PUBLISHERS } from './lookup-world.ts';

/** What the soak's requests need to know of the world it seeded (sent to the load child as JSON). */
export interface SoakContext {
  /** An API key of the organization that proved control of the soak's own domains. */
  apiKey: string;
  /** The test deployment's public agent credential. */
  agentCredential: string;
  /** The buyer's account on the sales agent (shared by both instances through the database). */
  accountId: string;
  /** The bench's webhook receiver, where async tasks are pushed. */
  hooksUrl: string;
  /** The bench's image host, for the creatives previewed. */
  imagesUrl: string;
  /** The feed's head when the traffic starts: feed reads page from there. */
  feedCursor: string;
  /** Domains the organization saves brands and properties of (each created once before the run). */
  brandDomains: string[];
  propertyDomains: string[];
}

export interface SoakRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Seeded choices, so a run with the same seed sends the same requests in the same order. */
export interface Picker {
  int(n: number): number;
  item<T>(items: readonly T[]): T;
  /** A UUID v4 unique within the run, derived from the seed (an idempotency key). */
  uuid(): string;
  /** The request's own sequence number, for names that change every save; set by whoever sends. */
  sequence: number;
}

/** A picker drawing from `random`; its UUIDs are `stem` (8 hex digits) and a count, so two stems never collide. */
export function seededPicker(random: () => number, stem: number): Picker {
  let uuids = 0;
  const prefix = (stem >>> 0).toString(16).padStart(8, '0');
  return {
    int: (n) => Math.floor(random() * n),
    item: (items) => items[Math.floor(random() * items.length)]!,
    uuid: () => `${prefix}-5eed-4000-8000-${(++uuids).toString(16).padStart(12, '0')}`,
    sequence: 0,
  };
}

export interface SoakOperation {
  name: string;
  /** Share of the requests, out of the weights' sum. */
  weight: number;
  /** An MCP tools/call: its answer is read for a tool error's code (HTTP 200) and a submitted task. */
  mcp: boolean;
  build(pick: Picker, base: string, context: SoakContext): SoakRequest;
}

const operators = Array.from({ length: 20 }, (_, o) => `operator-${o}.example`);
const publishers = Array.from({ length: PUBLISHERS }, (_, i) => `publisher-${i}.example`);
const checks = checkPaths();
const lookups = domainPaths();

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (path: string, headers: Record<string, string> = {}): SoakRequest => ({ method: 'GET', path, headers });
const post = (path: string, body: unknown, headers: Record<string, string>): SoakRequest => ({
  method: 'POST',
  path,
  headers: { ...json, ...headers },
  body: JSON.stringify(body),
});

/** A tools/call as an MCP client sends it (it accepts either answer form; the agents answer a stream of one message). */
function mcp(
  pick: Picker,
  agent: string,
  name: string,
  args: Record<string, unknown>,
  context: SoakContext,
): SoakRequest {
  return post(
    `/${agent}/mcp`,
    { jsonrpc: '2.0', id: pick.sequence, method: 'tools/call', params: { name, arguments: args } },
    { accept: 'application/json, text/event-stream', ...bearer(context.agentCredential) },
  );
}

const briefs = [
  'premium news display for a national bank',
  'home cooks planning weeknight dinners',
  'local events and city life in the evening',
  'outdoor adventure video for hikers',
  'pre-roll video on news for a car launch',
  'mobile app banners for a grocery delivery service',
];
const signalSpecs = [
  'pet owners',
  'new parents',
  'runners and fitness fans',
  'in-market for a car',
  'frequent travellers',
  'home cooks',
];
/** Auction products of the demo catalog, with a bid above each floor: booked at once. */
const auctionPackages = [
  { product_id: 'dh_news_display_auction', pricing_option_id: 'cpm_auction', budget: 1000, bid_price: 6 },
  { product_id: 'dh_app_banners', pricing_option_id: 'cpm_auction', budget: 800, bid_price: 4 },
  { product_id: 'cr_recipe_display_auction', pricing_option_id: 'cpm_auction', budget: 600, bid_price: 3 },
  { product_id: 'mw_local_display_auction', pricing_option_id: 'cpm_auction', budget: 500, bid_price: 2.5 },
];
/** The demo catalog's homepage takeover waits for the publisher's approval: the buy is `submitted` and completes in the background. */
const takeover = { product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18000 };

function buyArgs(pick: Picker, context: SoakContext, packages: unknown[]): Record<string, unknown> {
  return {
    idempotency_key: pick.uuid(),
    account: { account_id: context.accountId },
    brand: { domain: 'soak-buyer.example' },
    start_time: 'asap',
    end_time: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    packages,
  };
}

/**
 * The mix, in shares of the requests: mostly what an ad server and a buyer's tools ask all day
 * (authorization checks and lookups, resolutions, product and signal searches), fewer writes
 * (media buys, saves), and a few buys that go async and push a webhook. docs/decisions.md says why.
 */
export const soakOperations: SoakOperation[] = [
  { name: 'authorization check', weight: 22, mcp: false, build: (pick) => get(pick.item(checks)) },
  { name: 'domain lookup', weight: 8, mcp: false, build: (pick) => get(pick.item(lookups)) },
  {
    name: 'brand resolve',
    weight: 10,
    mcp: false,
    build: (pick, _base, c) =>
      get(`/api/brands/resolve?domain=${pick.int(2) === 0 ? pick.item(operators) : pick.item(c.brandDomains)}`),
  },
  {
    name: 'property resolve',
    weight: 10,
    mcp: false,
    build: (pick, _base, c) =>
      get(`/api/properties/resolve?domain=${pick.int(4) === 0 ? pick.item(c.propertyDomains) : pick.item(publishers)}`),
  },
  {
    name: 'feed read',
    weight: 5,
    mcp: false,
    build: (_pick, _base, c) => get(`/api/registry/feed?cursor=${c.feedCursor}&limit=100`, bearer(c.apiKey)),
  },
  {
    name: 'brand save',
    weight: 2,
    mcp: false,
    build: (pick, _base, c) => {
      const domain = pick.item(c.brandDomains);
      return post(
        '/api/brands/save',
        {
          domain,
          brand_name: `Soak brand ${domain}`,
          brand_manifest: { name: `Soak brand ${domain}`, description: `Revision ${pick.sequence}` },
        },
        bearer(c.apiKey),
      );
    },
  },
  {
    name: 'property save',
    weight: 3,
    mcp: false,
    build: (pick, _base, c) => {
      const publisher_domain = pick.item(c.propertyDomains);
      const agent = `https://sales.agent-${pick.int(40)}.example/mcp`;
      return post(
        '/api/properties/save',
        {
          publisher_domain,
          authorized_agents: [{ url: agent, authorized_for: `Display, revision ${pick.sequence}` }],
          properties: [{ type: 'website', name: publisher_domain }],
        },
        bearer(c.apiKey),
      );
    },
  },
  {
    name: 'sales get_products',
    weight: 12,
    mcp: true,
    build: (pick, _base, c) =>
      mcp(
        pick,
        'sales',
        'get_products',
        { buying_mode: 'brief', brief: pick.item(briefs), brand: { domain: 'soak-buyer.example' } },
        c,
      ),
  },
  {
    name: 'sales create_media_buy',
    weight: 6,
    mcp: true,
    build: (pick, _base, c) =>
      mcp(pick, 'sales', 'create_media_buy', buyArgs(pick, c, [pick.item(auctionPackages)]), c),
  },
  {
    name: 'sales create_media_buy async',
    weight: 2,
    mcp: true,
    build: (pick, _base, c) =>
      mcp(
        pick,
        'sales',
        'create_media_buy',
        {
          ...buyArgs(pick, c, [takeover]),
          push_notification_config: {
            url: `${c.hooksUrl}/hooks/soak/${pick.sequence}`,
            authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
          },
        },
        c,
      ),
  },
  {
    name: 'signals get_signals',
    weight: 8,
    mcp: true,
    build: (pick, _base, c) => mcp(pick, 'signals', 'get_signals', { signal_spec: pick.item(signalSpecs) }, c),
  },
  {
    name: 'creative list_creative_formats',
    weight: 6,
    mcp: true,
    build: (pick, _base, c) => mcp(pick, 'creative', 'list_creative_formats', {}, c),
  },
  {
    name: 'creative preview_creative',
    weight: 6,
    mcp: true,
    build: (pick, base, c) => {
      const n = pick.int(10);
      const manifest = {
        format_id: { agent_url: `${base}/creative/mcp`, id: 'display_300x250' },
        assets: {
          banner_image: { asset_type: 'image', url: `${c.imagesUrl}/banner-${n}.png`, width: 300, height: 250 },
          click_url: { asset_type: 'url', url: `https://soak-buyer.example/landing/${n}?cb={CACHEBUSTER}` },
        },
      };
      return mcp(pick, 'creative', 'preview_creative', { request_type: 'single', creative_manifest: manifest }, c);
    },
  },
];

/** What an MCP answer said beyond its HTTP status: a tool error's code, or the task an async call was accepted as. */
export interface McpOutcome {
  agentError?: string;
  submittedTaskId?: string;
}

/** Reads a tools/call answer, sent as JSON or as a stream of one `message` event. */
export function mcpOutcome(text: string): McpOutcome {
  const data =
    text.startsWith('event:') || text.startsWith('data:')
      ? text
          .split('\n')
          .find((line) => line.startsWith('data: '))
          ?.slice(6)
      : text;
  let answer: {
    error?: { code: number };
    result?: {
      isError?: boolean;
      structuredContent?: { ap_error?: { code?: string }; status?: string; task_id?: string };
    };
  };
  try {
    answer = JSON.parse(data ?? '') as typeof answer;
  } catch {
    return { agentError: 'UNREADABLE_ANSWER' };
  }
  if (answer.error) return { agentError: `JSON-RPC ${answer.error.code}` };
  const content = answer.result?.structuredContent;
  if (answer.result?.isError) return { agentError: content?.ap_error?.code ?? 'TOOL_ERROR' };
  return content?.status === 'submitted' && typeof content.task_id === 'string'
    ? { submittedTaskId: content.task_id }
    : {};
}
