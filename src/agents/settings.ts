import {
  ConfigError,
  flag,
  integer,
  list,
  nonEmpty,
  oneOf,
  reader,
  secret,
  type Env,
  type Setting,
} from '../settings.ts';

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

/**
 * The test deployment's credential when none is configured. Public on purpose, as the spec's test
 * deployment's is: it lets a newcomer call the agents, which then act for no organization.
 */
export const publicTestCredential = 'ap-test-deployment-public';

export const agentsSettings = {
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
  AP_SIGNING_KEY_SECRET: {
    default: '',
    meaning: "secret sealing the agents' private signing keys at rest (at least 32 characters; set it in production)",
  },
} as const satisfies Record<string, Setting>;

export function loadAgentsSettings(env: Env): AgentsConfig {
  const get = reader(agentsSettings, env);
  return {
    serve: flag('AGENTS', get('AGENTS')),
    salesCatalog: nonEmpty(get('SALES_CATALOG')),
    salesRequireOperatorAuth: flag('SALES_REQUIRE_OPERATOR_AUTH', get('SALES_REQUIRE_OPERATOR_AUTH')),
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
    testController: flag('AGENT_TEST_CONTROLLER', get('AGENT_TEST_CONTROLLER')),
    replayTtlSeconds: integer('AGENT_REPLAY_TTL_SECONDS', get('AGENT_REPLAY_TTL_SECONDS'), 3600, 604800),
    allowedHosts: list(get('AGENT_ALLOWED_HOSTS')),
    allowedOrigins: list(get('AGENT_ALLOWED_ORIGINS')),
    signingAlg: oneOf('AGENT_SIGNING_ALG', get('AGENT_SIGNING_ALG'), ['ed25519', 'ecdsa-p256-sha256']),
    signingKeySecret: secret('AP_SIGNING_KEY_SECRET', nonEmpty(get('AP_SIGNING_KEY_SECRET'))),
    webhookRetryBaseMs: integer('AGENT_WEBHOOK_RETRY_BASE_MS', get('AGENT_WEBHOOK_RETRY_BASE_MS'), 1, 3_600_000),
    webhookMaxAttempts: integer('AGENT_WEBHOOK_MAX_ATTEMPTS', get('AGENT_WEBHOOK_MAX_ATTEMPTS'), 1, 100),
    validateOutputs: oneOf('AGENT_VALIDATE_OUTPUTS', get('AGENT_VALIDATE_OUTPUTS'), ['off', 'log', 'throw']),
    taskMaxAttempts: integer('AGENT_TASK_MAX_ATTEMPTS', get('AGENT_TASK_MAX_ATTEMPTS'), 1, 100),
  };
}

function testCredential(value: string): string | undefined {
  if (value === 'off') return undefined;
  if (value.length < 16) throw new ConfigError('AGENT_TEST_CREDENTIAL must be at least 16 characters, or off');
  return value;
}
