/**
 * Configuration, from command-line flags over environment variables over defaults. Every value is
 * checked here, at start, so a typo fails loudly instead of running with a surprise. Config owns
 * its types and imports nothing from a capability; files a setting names are read by the
 * capability that uses them, when it registers (so a bad file still stops the start).
 */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite engine is used. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files (`memory://` for none). */
  dataDir: string;
  poolMax: number;
  bodyLimitBytes: number;
  logLevel: string;
  /** The address clients reach this server at, for the OpenAPI `servers` entry. */
  publicUrl: string | undefined;
  /** Trust X-Forwarded-* from a proxy in front: true, or the proxies' addresses/CIDRs. */
  trustProxy: boolean | string;
  /** Accepted at start as an admin key of the operator's organization (first-run setup, automation). */
  adminKey: string | undefined;
  identity: IdentityConfig;
  /** A proof of domain control lets the same organization save revisions for this many days. */
  ownershipProofDays: number;
  /** File of high-value brands whose look-alike domains are held for review (`AP_BRAND_DENY_LIST`); homographs reads it at registration. */
  brandDenyListPath: string | undefined;
  /** Where rate-limit counters live when not in the database. */
  redisUrl: string | undefined;
  /** Hosts the fetch client may reach although they are not public (development only). */
  fetchAllow: string | undefined;
  /** Whether a start on an empty database seeds the demo registry (default: only on embedded PGlite). */
  demo: boolean;
  /** Answers of the check and the domain lookup kept per index state (0 keeps none). */
  lookupCacheEntries: number;
  limits: Limits;
  feed: FeedConfig;
  agents: AgentsConfig;
  crawler: CrawlerConfig;
  /** Whether this instance probes the catalog's enrolled agents (health, capabilities, compliance). */
  probeWorker: boolean;
  /** The third-party brand-data API `/api/brands/enrich` asks first; undefined: the site's own metadata only. */
  brandDataProvider: BrandDataProviderConfig | undefined;
  /** Whether this instance publishes inventory profile changes to the feed (one instance at a time does). */
  profileEvents: boolean;
}

/** The crawler (registry spec section 5): its queue worker, schedule and fetch limits. */
export interface CrawlerConfig {
  /** Whether this instance runs the queue worker. */
  worker: boolean;
  intervalSeconds: number;
  /** Spread, as a fraction of the delay, so domains crawled together drift apart. */
  jitter: number;
  /** First retry delay after a transient failure; doubles with each further one, up to the interval. */
  retryBaseSeconds: number;
  concurrency: number;
  /** Least gap between two requests to one host, from this instance. */
  hostDelayMs: number;
  timeoutMs: number;
  maxBytes: number;
  /** authoritative_location (and brand.json house) hops followed before giving up. */
  maxHops: number;
  pollSeconds: number;
}

/** The agent runtime (agent-tasks spec sections 4 to 8). */
export interface AgentsConfig {
  /** Whether `ap serve` mounts the test deployment's agents (`/sales/mcp`, ...) beside the registry. */
  serve: boolean;
  /** The sales agent's catalog file (YAML or JSON); the demo catalog when unset. */
  salesCatalog: string | undefined;
  /** Explicit accounts on the sales agent: an undeclared natural key is ACCOUNT_NOT_FOUND (false: implicit accounts, the key declares itself). */
  salesRequireOperatorAuth: boolean;
  /** The signals agent's catalog file (YAML or JSON); the demo catalog when unset. */
  signalsCatalog: string | undefined;
  /** Seconds a platform activation takes in the test deployment; undefined: each platform's time as the catalog states it. */
  signalActivationSeconds: number | undefined;
  /** How long the creative agent hosts a preview (its expires_at). */
  creativePreviewTtlSeconds: number;
  /** The test deployment's public bearer credential; none when `off`. */
  testCredential: string | undefined;
  /** Whether the sales agent serves comply_test_controller (sandbox accounts only). */
  testController: boolean;
  /** How long a mutating task's first response is replayed for its idempotency key. */
  replayTtlSeconds: number;
  /** Host names the agent endpoints answer besides loopback and PUBLIC_URL's (DNS-rebinding protection). */
  allowedHosts: string[];
  /** Browser origins allowed to call the agent endpoints. */
  allowedOrigins: string[];
  /** The algorithm of webhook signing keys made from now on. */
  signingAlg: 'ed25519' | 'ecdsa-p256-sha256';
  /** Seals signing keys at rest (AES-256-GCM); required in production. */
  signingKeySecret: string | undefined;
  /** First webhook retry delay; doubled (with jitter) on every further retry. */
  webhookRetryBaseMs: number;
  /** Attempts before a webhook delivery is given up. */
  webhookMaxAttempts: number;
  /** What happens when a task answers something its declared output schema refuses (the test suite throws). */
  validateOutputs: 'off' | 'log' | 'throw';
  /** Runs of a long task (each a claim whose lease lapsed or whose handler threw unexpectedly) before it fails for good. */
  taskMaxAttempts: number;
}

/** The change feed (spec section 4). */
export interface FeedConfig {
  /** Events older than this are deleted (and their cursors answer 410). */
  retentionDays: number;
  /** How often the retention job runs. */
  pruneIntervalSeconds: number;
  /** How often a caught-up stream is sent a heartbeat. */
  heartbeatSeconds: number;
}

/** Who issues user tokens: this service (the default), or an external issuer it trusts. */
export interface IdentityConfig {
  /** An external issuer's URL; unset runs the embedded identity provider. */
  externalIssuer: string | undefined;
  /** The external issuer's JWKS; required with `externalIssuer`. */
  externalJwksUrl: string | undefined;
  /** Audiences accepted in external tokens; defaults to this server's resource identifiers. */
  externalAudiences: string[];
  /** Lifetime of access tokens the embedded provider issues. */
  accessTokenTtlSeconds: number;
  /** Clock skew tolerated when checking `exp` and `nbf`. */
  clockSkewSeconds: number;
}

/** A third-party brand-data API: `GET {url}/brands/{domain}` with `Authorization: Bearer {key}`. */
export interface BrandDataProviderConfig {
  /** Without a trailing slash. */
  url: string;
  key: string;
  timeoutMs: number;
}

/** Rate limits (spec section 8), per window. */
export interface Limits {
  bulkResolvePerMinute: number;
  savesPerHourPerPrincipal: number;
  savesPerHourPerOrganization: number;
  savesPerHourPerIp: number;
  signInsPerMinutePerIp: number;
  crawlRequestsPerHourPerPrincipal: number;
  /** Seconds during which a domain may be requested only once, by anyone. */
  crawlRequestDomainWindowSeconds: number;
  /** `/api/brands/enrich` fetches on an anonymous caller's behalf, so it is limited per IP (the spec sets no limit). */
  enrichPerMinutePerIp: number;
  /** Agent probes (the three /api/public probing endpoints together) per minute: per IP without a credential, per principal with one. */
  probesPerMinutePerIp: number;
  probesPerMinutePerPrincipal: number;
  /** Per IP, for each of the adagents tools (validate, create) and the manifest-refs lookup. */
  adagentsToolsPerMinute: number;
  /** Per IP and per user: the publisher validation fetches live. */
  validatePublisherPerMinute: number;
}

export interface ConfigFlags {
  port?: string;
  host?: string;
  databaseUrl?: string;
  dataDir?: string;
}

/** The environment variables, with their meaning and default; the README's table is this one. */
/**
 * The test deployment's credential when none is configured. Public on purpose, as the spec's test
 * deployment's is: it lets a newcomer call the agents, which then act for no organization.
 */
export const publicTestCredential = 'ap-test-deployment-public';

export const envVars = {
  PORT: { default: '3000', meaning: 'HTTP port' },
  HOST: { default: '127.0.0.1', meaning: 'interface to listen on (0.0.0.0 for all)' },
  DATABASE_URL: { default: '', meaning: 'PostgreSQL connection string; unset uses embedded PGlite' },
  DATA_DIR: { default: './data', meaning: 'PGlite data directory (memory:// keeps nothing)' },
  DATABASE_POOL_MAX: { default: '10', meaning: 'PostgreSQL pool size' },
  BODY_LIMIT_BYTES: { default: '1048576', meaning: 'largest request body accepted (413 beyond)' },
  LOG_LEVEL: { default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  PUBLIC_URL: { default: '', meaning: 'external base URL, listed as the server in the OpenAPI document' },
  TRUST_PROXY: {
    default: 'false',
    meaning: 'trust X-Forwarded-* headers: true, or comma-separated proxy addresses/CIDRs',
  },
  AP_ADMIN_KEY: {
    default: '',
    meaning: 'accepted at start as an API key of the admin organization (first-run setup, automation)',
  },
  AP_OAUTH_ISSUER: {
    default: '',
    meaning: 'trust this external OAuth issuer instead of the embedded one (needs AP_OAUTH_JWKS_URL)',
  },
  AP_OAUTH_JWKS_URL: { default: '', meaning: "the external issuer's JWKS URL" },
  AP_OAUTH_AUDIENCE: {
    default: '',
    meaning: "comma-separated audiences accepted in external tokens (default: this server's /api and /mcp resources)",
  },
  AP_ACCESS_TOKEN_TTL: {
    default: '3600',
    meaning: 'lifetime in seconds of access tokens the embedded identity provider issues',
  },
  AP_TOKEN_CLOCK_SKEW: { default: '30', meaning: 'seconds of clock skew tolerated when checking token exp and nbf' },
  AP_OWNERSHIP_PROOF_DAYS: {
    default: '90',
    meaning: 'days a proof of domain control covers later saves by the same organization',
  },
  AP_BRAND_DENY_LIST: {
    default: '',
    meaning: 'JSON or YAML file of high-value brands whose look-alike domains are held for review',
  },
  REDIS_URL: { default: '', meaning: 'keep rate-limit counters in this Redis instead of the database' },
  AP_FETCH_ALLOW: { default: '', meaning: 'development only: non-public hosts the fetch client may reach (see docs)' },
  LOOKUP_CACHE_ENTRIES: {
    default: '10000',
    meaning:
      'answers of the authorization check and the domain lookup kept in memory until the next change to the registry graph (0 keeps none)',
  },
  AP_DEMO: {
    default: '',
    meaning:
      'seed a demo registry into an empty database at start: true or false (unset: true on embedded PGlite, false on PostgreSQL)',
  },
  RATE_LIMIT_BULK_RESOLVE_PER_MINUTE: { default: '20', meaning: 'bulk resolve requests per minute per IP' },
  RATE_LIMIT_SAVES_PER_HOUR: { default: '60', meaning: 'saves per hour per user or key' },
  RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: { default: '300', meaning: 'saves per hour per organization' },
  RATE_LIMIT_SAVES_PER_HOUR_PER_IP: { default: '120', meaning: 'saves per hour per IP' },
  RATE_LIMIT_SIGN_INS_PER_MINUTE: { default: '10', meaning: 'password sign-in attempts per minute per IP' },
  FEED_RETENTION_DAYS: { default: '90', meaning: 'days change-feed events (and their cursors) are kept' },
  FEED_PRUNE_INTERVAL_SECONDS: { default: '3600', meaning: 'how often the feed retention job deletes old events' },
  FEED_HEARTBEAT_SECONDS: { default: '15', meaning: 'heartbeat interval of caught-up feed streams' },
  AGENTS: {
    default: 'true',
    meaning: "mount the test deployment's agents (/sales/mcp, ...) beside the registry (true or false)",
  },
  SALES_CATALOG: {
    default: '',
    meaning: "the sales agent's product catalog, a YAML or JSON file (default: the demo catalog)",
  },
  SALES_REQUIRE_OPERATOR_AUTH: {
    default: 'false',
    meaning:
      'true: explicit accounts on the sales agent (a natural key not declared with sync_accounts is ACCOUNT_NOT_FOUND); false: implicit accounts (true or false)',
  },
  SIGNALS_CATALOG: {
    default: '',
    meaning: "the signals agent's catalog, a YAML or JSON file (default: the demo catalog)",
  },
  SIGNALS_ACTIVATION_SECONDS: {
    default: '5',
    meaning:
      "seconds a platform activation of a signal takes in the test deployment (0 to 86400), or catalog for each platform's own time",
  },
  CREATIVE_PREVIEW_TTL_SECONDS: {
    default: '86400',
    meaning: 'seconds the creative agent hosts a preview before it answers 410 (60 to 2592000)',
  },
  AGENT_TEST_CREDENTIAL: {
    default: publicTestCredential,
    meaning: "the test deployment's public bearer credential, printed at start (at least 16 characters; off for none)",
  },
  AGENT_TEST_CONTROLLER: {
    default: 'true',
    meaning: "the sales agent serves comply_test_controller on callers' sandbox accounts (true or false)",
  },
  AGENT_REPLAY_TTL_SECONDS: {
    default: '86400',
    meaning: 'seconds an agent replays the first response to an idempotency key (3600 to 604800)',
  },
  AGENT_ALLOWED_HOSTS: {
    default: '',
    meaning: 'comma-separated host names the agent endpoints answer besides loopback and PUBLIC_URL',
  },
  AGENT_ALLOWED_ORIGINS: {
    default: '',
    meaning: 'comma-separated browser origins allowed to call the agent endpoints',
  },
  AGENT_SIGNING_ALG: { default: 'ed25519', meaning: 'algorithm of webhook signing keys: ed25519 or ecdsa-p256-sha256' },
  AGENT_WEBHOOK_RETRY_BASE_MS: {
    default: '1000',
    meaning: 'first webhook retry delay in ms, doubled with jitter on each further retry (up to an hour)',
  },
  AGENT_WEBHOOK_MAX_ATTEMPTS: { default: '12', meaning: 'webhook delivery attempts before giving up' },
  AGENT_VALIDATE_OUTPUTS: {
    default: 'log',
    meaning:
      'check task answers against their output schemas: off, log (warn and answer anyway) or throw (answer INTERNAL_ERROR)',
  },
  AGENT_TASK_MAX_ATTEMPTS: { default: '3', meaning: 'runs of a long-running task before it fails for good' },
  CRAWL_WORKER: { default: 'true', meaning: 'run the crawl queue worker in this instance (true or false)' },
  PROBE_WORKER: {
    default: 'true',
    meaning: "probe the agent catalog's enrolled agents from this instance (true or false)",
  },
  AGENT_PROFILE_EVENTS: {
    default: 'true',
    meaning:
      'publish agent.profile_updated events for inventory profile changes from this instance (true or false; one instance at a time does)',
  },
  CRAWL_INTERVAL_SECONDS: { default: '86400', meaning: 'seconds between re-crawls of a domain (jittered)' },
  CRAWL_JITTER: { default: '0.1', meaning: 'spread of re-crawl times, as a fraction of the interval (0 to 0.5)' },
  CRAWL_RETRY_BASE_SECONDS: {
    default: '60',
    meaning: 'first retry delay after a timeout, 5xx or 429; doubled on each further failure, up to the interval',
  },
  CRAWL_CONCURRENCY: { default: '16', meaning: 'domains one instance crawls at once' },
  CRAWL_HOST_DELAY_MS: {
    default: '1000',
    meaning: 'least gap between two requests one instance sends to the same host',
  },
  CRAWL_TIMEOUT_MS: { default: '10000', meaning: 'time allowed for fetching one adagents.json or brand.json' },
  CRAWL_MAX_BYTES: { default: '1048576', meaning: 'largest adagents.json or brand.json accepted' },
  CRAWL_MAX_HOPS: { default: '3', meaning: 'authoritative_location hops followed before a file is refused' },
  CRAWL_POLL_SECONDS: { default: '5', meaning: 'how often the crawl worker looks for due domains' },
  RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR: { default: '30', meaning: 'crawl requests per hour per user or key' },
  RATE_LIMIT_CRAWL_DOMAIN_SECONDS: {
    default: '300',
    meaning: 'seconds during which one domain may be requested for crawling once',
  },
  RATE_LIMIT_ENRICH_PER_MINUTE: { default: '30', meaning: 'brand enrichment requests per minute per IP' },
  BRAND_DATA_PROVIDER_URL: {
    default: '',
    meaning:
      "base URL of a third-party brand-data API that /api/brands/enrich asks first (GET <url>/brands/<domain>); https, or http on a loopback host; unset: the site's own metadata only",
  },
  BRAND_DATA_PROVIDER_KEY: {
    default: '',
    meaning: "the brand-data API's key, sent as a Bearer token (required with BRAND_DATA_PROVIDER_URL)",
  },
  BRAND_DATA_PROVIDER_TIMEOUT_MS: {
    default: '5000',
    meaning: 'time allowed for one answer of the brand-data API (100 to 60000)',
  },
  RATE_LIMIT_PROBES_PER_MINUTE: {
    default: '10',
    meaning:
      'agent probes (discover-agent, agent-formats, agent-products together) per minute per IP, for callers without a credential',
  },
  RATE_LIMIT_PROBES_PER_MINUTE_PER_USER: { default: '30', meaning: 'agent probes per minute per user or key' },
  RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE: {
    default: '60',
    meaning:
      'requests per minute per IP to each of /api/adagents/validate, /api/adagents/create and /api/manifest-refs/lookup',
  },
  RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE: {
    default: '10',
    meaning: 'publisher validations (/api/public/validate-publisher) per minute per IP, and per user',
  },
  AP_SIGNING_KEY_SECRET: {
    default: '',
    meaning: "secret sealing the agents' private signing keys at rest (at least 32 characters; set it in production)",
  },
} as const;

type Env = Record<string, string | undefined>;

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const get = (name: keyof typeof envVars, flag?: string) => flag ?? nonEmpty(env[name]) ?? envVars[name].default;
  return {
    port: integer('port', get('PORT', flags.port), 0, 65535),
    host: get('HOST', flags.host),
    databaseUrl: nonEmpty(get('DATABASE_URL', flags.databaseUrl)),
    dataDir: get('DATA_DIR', flags.dataDir),
    poolMax: integer('DATABASE_POOL_MAX', get('DATABASE_POOL_MAX'), 1, 1000),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', get('BODY_LIMIT_BYTES'), 1, 1024 ** 3),
    logLevel: oneOf('LOG_LEVEL', get('LOG_LEVEL'), ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    publicUrl: nonEmpty(get('PUBLIC_URL')),
    trustProxy: trustProxy(get('TRUST_PROXY')),
    adminKey: adminKey(nonEmpty(get('AP_ADMIN_KEY'))),
    identity: identity(get),
    ownershipProofDays: integer('AP_OWNERSHIP_PROOF_DAYS', get('AP_OWNERSHIP_PROOF_DAYS'), 1, 3650),
    brandDenyListPath: nonEmpty(get('AP_BRAND_DENY_LIST')),
    redisUrl: nonEmpty(get('REDIS_URL')),
    fetchAllow: nonEmpty(get('AP_FETCH_ALLOW')),
    lookupCacheEntries: integer('LOOKUP_CACHE_ENTRIES', get('LOOKUP_CACHE_ENTRIES'), 0, 1e7),
    demo: demo(get('AP_DEMO'), nonEmpty(get('DATABASE_URL', flags.databaseUrl))),
    limits: {
      bulkResolvePerMinute: integer(
        'RATE_LIMIT_BULK_RESOLVE_PER_MINUTE',
        get('RATE_LIMIT_BULK_RESOLVE_PER_MINUTE'),
        1,
        1e6,
      ),
      savesPerHourPerPrincipal: integer('RATE_LIMIT_SAVES_PER_HOUR', get('RATE_LIMIT_SAVES_PER_HOUR'), 1, 1e6),
      savesPerHourPerOrganization: integer(
        'RATE_LIMIT_SAVES_PER_HOUR_PER_ORG',
        get('RATE_LIMIT_SAVES_PER_HOUR_PER_ORG'),
        1,
        1e6,
      ),
      savesPerHourPerIp: integer('RATE_LIMIT_SAVES_PER_HOUR_PER_IP', get('RATE_LIMIT_SAVES_PER_HOUR_PER_IP'), 1, 1e6),
      signInsPerMinutePerIp: integer('RATE_LIMIT_SIGN_INS_PER_MINUTE', get('RATE_LIMIT_SIGN_INS_PER_MINUTE'), 1, 1e6),
      crawlRequestsPerHourPerPrincipal: integer(
        'RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR',
        get('RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR'),
        1,
        1e6,
      ),
      crawlRequestDomainWindowSeconds: integer(
        'RATE_LIMIT_CRAWL_DOMAIN_SECONDS',
        get('RATE_LIMIT_CRAWL_DOMAIN_SECONDS'),
        1,
        86400,
      ),
      enrichPerMinutePerIp: integer('RATE_LIMIT_ENRICH_PER_MINUTE', get('RATE_LIMIT_ENRICH_PER_MINUTE'), 1, 1e6),
      probesPerMinutePerIp: integer('RATE_LIMIT_PROBES_PER_MINUTE', get('RATE_LIMIT_PROBES_PER_MINUTE'), 1, 1e6),
      probesPerMinutePerPrincipal: integer(
        'RATE_LIMIT_PROBES_PER_MINUTE_PER_USER',
        get('RATE_LIMIT_PROBES_PER_MINUTE_PER_USER'),
        1,
        1e6,
      ),
      adagentsToolsPerMinute: integer(
        'RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE',
        get('RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE'),
        1,
        1e6,
      ),
      validatePublisherPerMinute: integer(
        'RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE',
        get('RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE'),
        1,
        1e6,
      ),
    },
    feed: {
      retentionDays: integer('FEED_RETENTION_DAYS', get('FEED_RETENTION_DAYS'), 1, 3650),
      pruneIntervalSeconds: integer('FEED_PRUNE_INTERVAL_SECONDS', get('FEED_PRUNE_INTERVAL_SECONDS'), 1, 7 * 86400),
      heartbeatSeconds: integer('FEED_HEARTBEAT_SECONDS', get('FEED_HEARTBEAT_SECONDS'), 1, 3600),
    },
    agents: {
      serve: oneOf('AGENTS', get('AGENTS'), ['true', 'false']) === 'true',
      salesCatalog: nonEmpty(get('SALES_CATALOG')),
      salesRequireOperatorAuth:
        oneOf('SALES_REQUIRE_OPERATOR_AUTH', get('SALES_REQUIRE_OPERATOR_AUTH'), ['true', 'false']) === 'true',
      signalsCatalog: nonEmpty(get('SIGNALS_CATALOG')),
      creativePreviewTtlSeconds: integer(
        'CREATIVE_PREVIEW_TTL_SECONDS',
        get('CREATIVE_PREVIEW_TTL_SECONDS'),
        60,
        2_592_000,
      ),
      signalActivationSeconds:
        get('SIGNALS_ACTIVATION_SECONDS') === 'catalog'
          ? undefined
          : integer('SIGNALS_ACTIVATION_SECONDS', get('SIGNALS_ACTIVATION_SECONDS'), 0, 86400),
      testCredential: testCredential(get('AGENT_TEST_CREDENTIAL')),
      testController: oneOf('AGENT_TEST_CONTROLLER', get('AGENT_TEST_CONTROLLER'), ['true', 'false']) === 'true',
      replayTtlSeconds: integer('AGENT_REPLAY_TTL_SECONDS', get('AGENT_REPLAY_TTL_SECONDS'), 3600, 604800),
      allowedHosts: list(get('AGENT_ALLOWED_HOSTS')),
      allowedOrigins: list(get('AGENT_ALLOWED_ORIGINS')),
      signingAlg: oneOf('AGENT_SIGNING_ALG', get('AGENT_SIGNING_ALG'), ['ed25519', 'ecdsa-p256-sha256']),
      signingKeySecret: signingKeySecret(nonEmpty(get('AP_SIGNING_KEY_SECRET'))),
      webhookRetryBaseMs: integer('AGENT_WEBHOOK_RETRY_BASE_MS', get('AGENT_WEBHOOK_RETRY_BASE_MS'), 1, 3_600_000),
      webhookMaxAttempts: integer('AGENT_WEBHOOK_MAX_ATTEMPTS', get('AGENT_WEBHOOK_MAX_ATTEMPTS'), 1, 100),
      validateOutputs: oneOf('AGENT_VALIDATE_OUTPUTS', get('AGENT_VALIDATE_OUTPUTS'), ['off', 'log', 'throw']),
      taskMaxAttempts: integer('AGENT_TASK_MAX_ATTEMPTS', get('AGENT_TASK_MAX_ATTEMPTS'), 1, 100),
    },
    crawler: {
      worker: oneOf('CRAWL_WORKER', get('CRAWL_WORKER'), ['true', 'false']) === 'true',
      intervalSeconds: integer('CRAWL_INTERVAL_SECONDS', get('CRAWL_INTERVAL_SECONDS'), 60, 365 * 86400),
      jitter: fraction('CRAWL_JITTER', get('CRAWL_JITTER'), 0, 0.5),
      retryBaseSeconds: integer('CRAWL_RETRY_BASE_SECONDS', get('CRAWL_RETRY_BASE_SECONDS'), 1, 86400),
      concurrency: integer('CRAWL_CONCURRENCY', get('CRAWL_CONCURRENCY'), 1, 1000),
      hostDelayMs: integer('CRAWL_HOST_DELAY_MS', get('CRAWL_HOST_DELAY_MS'), 0, 60_000),
      timeoutMs: integer('CRAWL_TIMEOUT_MS', get('CRAWL_TIMEOUT_MS'), 100, 120_000),
      maxBytes: integer('CRAWL_MAX_BYTES', get('CRAWL_MAX_BYTES'), 1024, 64 * 1024 * 1024),
      maxHops: integer('CRAWL_MAX_HOPS', get('CRAWL_MAX_HOPS'), 0, 10),
      pollSeconds: integer('CRAWL_POLL_SECONDS', get('CRAWL_POLL_SECONDS'), 1, 3600),
    },
    probeWorker: oneOf('PROBE_WORKER', get('PROBE_WORKER'), ['true', 'false']) === 'true',
    profileEvents: oneOf('AGENT_PROFILE_EVENTS', get('AGENT_PROFILE_EVENTS'), ['true', 'false']) === 'true',
    brandDataProvider: brandDataProvider(get),
  };
}

function brandDataProvider(get: (name: keyof typeof envVars) => string): BrandDataProviderConfig | undefined {
  const url = nonEmpty(get('BRAND_DATA_PROVIDER_URL'));
  const key = nonEmpty(get('BRAND_DATA_PROVIDER_KEY'));
  const timeoutMs = integer('BRAND_DATA_PROVIDER_TIMEOUT_MS', get('BRAND_DATA_PROVIDER_TIMEOUT_MS'), 100, 60_000);
  if (url === undefined && key === undefined) return undefined;
  if (url === undefined)
    throw new ConfigError('BRAND_DATA_PROVIDER_KEY needs BRAND_DATA_PROVIDER_URL, the API it is for');
  if (key === undefined)
    throw new ConfigError('BRAND_DATA_PROVIDER_URL needs BRAND_DATA_PROVIDER_KEY, the key it is called with');
  // Printable ASCII only: the key goes into a header, where a newline would start another.
  if (!/^[\x21-\x7e]{1,4096}$/.test(key))
    throw new ConfigError('BRAND_DATA_PROVIDER_KEY must be 1 to 4096 printable ASCII characters without spaces');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`BRAND_DATA_PROVIDER_URL must be a URL, got "${url}"`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  // The key travels with every request: never in clear text beyond this machine.
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new ConfigError(`BRAND_DATA_PROVIDER_URL must be https (http only on a loopback host), got "${url}"`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new ConfigError(
      'BRAND_DATA_PROVIDER_URL must have no credentials, query or fragment: the key is BRAND_DATA_PROVIDER_KEY',
    );
  }
  return { url: parsed.href.replace(/\/+$/, ''), key, timeoutMs };
}

function testCredential(value: string): string | undefined {
  if (value === 'off') return undefined;
  if (value.length < 16) throw new ConfigError('AGENT_TEST_CREDENTIAL must be at least 16 characters, or off');
  return value;
}

function adminKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.length < 32)
    throw new ConfigError('AP_ADMIN_KEY must be at least 32 characters; make one with `openssl rand -hex 32`');
  // Three dot-separated parts read as a JWT, which is never looked up as a key.
  if (/^[^.]+\.[^.]+\.[^.]+$/.test(value))
    throw new ConfigError('AP_ADMIN_KEY must not have the shape of a JWT (three dot-separated parts)');
  return value;
}

/** A production database never gets demo data unless asked; the embedded one, a newcomer's, does. */
function demo(value: string, databaseUrl: string | undefined): boolean {
  if (value === '') return databaseUrl === undefined;
  return oneOf('AP_DEMO', value, ['true', 'false']) === 'true';
}

function identity(get: (name: keyof typeof envVars) => string): IdentityConfig {
  const externalIssuer = nonEmpty(get('AP_OAUTH_ISSUER'));
  const externalJwksUrl = nonEmpty(get('AP_OAUTH_JWKS_URL'));
  if (externalIssuer && !externalJwksUrl)
    throw new ConfigError('AP_OAUTH_ISSUER needs AP_OAUTH_JWKS_URL, where its signing keys are published');
  if (externalJwksUrl && !externalIssuer)
    throw new ConfigError('AP_OAUTH_JWKS_URL needs AP_OAUTH_ISSUER, the issuer it belongs to');
  for (const [name, value] of [
    ['AP_OAUTH_ISSUER', externalIssuer],
    ['AP_OAUTH_JWKS_URL', externalJwksUrl],
  ] as const) {
    if (value && !URL.canParse(value)) throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
  return {
    externalIssuer,
    externalJwksUrl,
    externalAudiences: get('AP_OAUTH_AUDIENCE')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    accessTokenTtlSeconds: integer('AP_ACCESS_TOKEN_TTL', get('AP_ACCESS_TOKEN_TTL'), 60, 86400),
    clockSkewSeconds: integer('AP_TOKEN_CLOCK_SKEW', get('AP_TOKEN_CLOCK_SKEW'), 0, 300),
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

function fraction(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n < min || n > max)
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${value}"`);
  return n;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function trustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function signingKeySecret(value: string | undefined): string | undefined {
  if (value !== undefined && value.length < 32)
    throw new ConfigError('AP_SIGNING_KEY_SECRET must be at least 32 characters; make one with `openssl rand -hex 32`');
  return value;
}
