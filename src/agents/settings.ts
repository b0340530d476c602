import { ConfigError, flag, integer, list, oneOf, optional, secret, settings, type Loaded } from '../settings.ts';

/**
 * The test deployment's credential when none is configured. Public on purpose, as the spec's test
 * deployment's is: it lets a newcomer call the agents, which then act for no organization.
 */
export const publicTestCredential = 'ap-test-deployment-public';

/** The agent runtime (agent-tasks spec sections 4 to 8). */
export const agentsSettings = settings({
  /** Whether `ap serve` mounts the test deployment's agents (`/sales/mcp`, ...) beside the registry. */
  serve: {
    env: 'AGENTS',
    default: 'true',
    meaning: "mount the test deployment's agents (/sales/mcp, ...) beside the registry (true or false)",
    parse: flag,
  },
  /** The sales agent's catalog file (YAML or JSON); the demo catalog when unset. */
  salesCatalog: {
    env: 'SALES_CATALOG',
    default: '',
    meaning: "the sales agent's product catalog, a YAML or JSON file (default: the demo catalog)",
    parse: optional,
  },
  /** Explicit accounts on the sales agent: an undeclared natural key is ACCOUNT_NOT_FOUND (false: implicit accounts, the key declares itself). */
  salesRequireOperatorAuth: {
    env: 'SALES_REQUIRE_OPERATOR_AUTH',
    default: 'false',
    meaning:
      'true: explicit accounts on the sales agent (a natural key not declared with sync_accounts is ACCOUNT_NOT_FOUND); false: implicit accounts (true or false)',
    parse: flag,
  },
  /** The signals agent's catalog file (YAML or JSON); the demo catalog when unset. */
  signalsCatalog: {
    env: 'SIGNALS_CATALOG',
    default: '',
    meaning: "the signals agent's catalog, a YAML or JSON file (default: the demo catalog)",
    parse: optional,
  },
  /** Seconds a platform activation takes in the test deployment; undefined: each platform's time as the catalog states it. */
  signalActivationSeconds: {
    env: 'SIGNALS_ACTIVATION_SECONDS',
    default: '5',
    meaning:
      "seconds a platform activation of a signal takes in the test deployment (0 to 86400), or catalog for each platform's own time",
    parse: (value, name) => (value === 'catalog' ? undefined : integer(0, 86400)(value, name)),
  },
  /** How long the creative agent hosts a preview (its expires_at). */
  creativePreviewTtlSeconds: {
    env: 'CREATIVE_PREVIEW_TTL_SECONDS',
    default: '86400',
    meaning: 'seconds the creative agent hosts a preview before it answers 410 (60 to 2592000)',
    parse: integer(60, 2_592_000),
  },
  /** The test deployment's public bearer credential; none when `off`. */
  testCredential: {
    env: 'AGENT_TEST_CREDENTIAL',
    default: publicTestCredential,
    meaning: "the test deployment's public bearer credential, printed at start (at least 16 characters; off for none)",
    parse: testCredential,
  },
  /** Whether the sales agent serves comply_test_controller (sandbox accounts only). */
  testController: {
    env: 'AGENT_TEST_CONTROLLER',
    default: 'true',
    meaning: "the sales agent serves comply_test_controller on callers' sandbox accounts (true or false)",
    parse: flag,
  },
  /** How long a mutating task's first response is replayed for its idempotency key. */
  replayTtlSeconds: {
    env: 'AGENT_REPLAY_TTL_SECONDS',
    default: '86400',
    meaning: 'seconds an agent replays the first response to an idempotency key (3600 to 604800)',
    parse: integer(3600, 604800),
  },
  /** Host names the agent endpoints answer besides loopback and PUBLIC_URL's (DNS-rebinding protection). */
  allowedHosts: {
    env: 'AGENT_ALLOWED_HOSTS',
    default: '',
    meaning: 'comma-separated host names the agent endpoints answer besides loopback and PUBLIC_URL',
    parse: list,
  },
  /** Browser origins allowed to call the agent endpoints. */
  allowedOrigins: {
    env: 'AGENT_ALLOWED_ORIGINS',
    default: '',
    meaning: 'comma-separated browser origins allowed to call the agent endpoints',
    parse: list,
  },
  /** The algorithm of webhook signing keys made from now on. */
  signingAlg: {
    env: 'AGENT_SIGNING_ALG',
    default: 'ed25519',
    meaning: 'algorithm of webhook signing keys: ed25519 or ecdsa-p256-sha256',
    parse: oneOf(['ed25519', 'ecdsa-p256-sha256']),
  },
  /** First webhook retry delay; doubled (with jitter) on every further retry. */
  webhookRetryBaseMs: {
    env: 'AGENT_WEBHOOK_RETRY_BASE_MS',
    default: '1000',
    meaning: 'first webhook retry delay in ms, doubled with jitter on each further retry (up to an hour)',
    parse: integer(1, 3_600_000),
  },
  /** Attempts before a webhook delivery is given up. */
  webhookMaxAttempts: {
    env: 'AGENT_WEBHOOK_MAX_ATTEMPTS',
    default: '12',
    meaning: 'webhook delivery attempts before giving up',
    parse: integer(1, 100),
  },
  /** What happens when a task answers something its declared output schema refuses (the test suite throws). */
  validateOutputs: {
    env: 'AGENT_VALIDATE_OUTPUTS',
    default: 'sample',
    meaning:
      'check task answers against their output schemas: off, sample (each task’s first 100 answers and one in 100 after; warn and answer anyway), log (every answer; warn) or throw (answer INTERNAL_ERROR)',
    parse: oneOf(['off', 'sample', 'log', 'throw']),
  },
  /** Runs of a long task (each a claim whose lease lapsed or whose handler threw unexpectedly) before it fails for good. */
  taskMaxAttempts: {
    env: 'AGENT_TASK_MAX_ATTEMPTS',
    default: '3',
    meaning: 'runs of a long-running task before it fails for good',
    parse: integer(1, 100),
  },
  /** How long a claimed webhook delivery is a worker's: one that died is sent again once it lapses. */
  webhookLeaseSeconds: {
    env: 'AGENT_WEBHOOK_LEASE_SECONDS',
    default: '60',
    meaning: 'how long a webhook delivery in progress stays a worker’s; a dead worker’s is sent again once it lapses',
    parse: integer(1, 3600),
  },
  /** How long a long-running task's run holds it between renewals (every third of it). */
  taskLeaseSeconds: {
    env: 'AGENT_TASK_LEASE_SECONDS',
    default: '300',
    meaning:
      'how long a running task stays a worker’s between renewals (each a third of it); a dead worker’s is run again once it lapses',
    parse: integer(3, 86400),
  },
  /** Seals signing keys at rest (AES-256-GCM); required in production. */
  signingKeySecret: {
    env: 'AP_SIGNING_KEY_SECRET',
    default: '',
    meaning: "secret sealing the agents' private signing keys at rest (at least 32 characters; set it in production)",
    parse: secret,
  },
});

export type AgentsConfig = Loaded<typeof agentsSettings>;

function testCredential(value: string, name: string): string | undefined {
  if (value === 'off') return undefined;
  if (value.length < 16) throw new ConfigError(`${name} must be at least 16 characters, or off`);
  return value;
}
