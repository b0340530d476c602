import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { BackgroundPass } from '../jobs/background-pass.ts';
import { isLoopbackHost } from '../net/address-policy.ts';
import { signatureLifetimeSeconds } from './runtime/keys/lifetime.ts';
import { currentKey, type KeySettings } from './runtime/keys/store.ts';
import { pruneAgentRecords } from './runtime/housekeeping.ts';
import type { Tenant } from './runtime/index.ts';
import { TaskWorker } from './runtime/tasks/worker.ts';
import { WebhookDeliverer } from './runtime/webhooks/deliverer.ts';

/*
 * What the agents run besides answering calls, as factories for the composition root, which
 * builds each once, hands the worker to the agents' routes and starts and stops them all: the
 * worker that runs long tasks, the outbox sender of their webhooks (signed with the agents'
 * keys), each tenant's background passes and the housekeeping that prunes old agent records.
 */

/** The agents' signing keys, as the webhook sender signs with them and the JWKS routes publish them. */
export function signingKeys({ config, clock }: Pick<AppContext, 'config' | 'clock'>): KeySettings {
  return {
    alg: config.agents.signingAlg,
    secret: config.agents.signingKeySecret,
    clock,
    publishWindowSeconds: signatureLifetimeSeconds,
  };
}

/** Sends the webhooks the agents' calls queued in the outbox, retrying with backoff. */
export function createWebhookDeliverer(ctx: AppContext, keys: KeySettings, log: FastifyBaseLogger): WebhookDeliverer {
  const { agents } = ctx.config;
  return new WebhookDeliverer({
    db: ctx.db,
    fetcher: ctx.fetcher,
    clock: ctx.clock,
    signingKey: () => currentKey(ctx.db, keys),
    settings: {
      baseDelayMs: agents.webhookRetryBaseMs,
      maxDelayMs: 3_600_000,
      maxAttempts: agents.webhookMaxAttempts,
      leaseMs: agents.webhookLeaseSeconds * 1000,
      pollMs: 1000,
    },
    log,
  });
}

/** Runs the tenants' long tasks; a task that queued webhooks wakes `deliverer`. */
export function createTaskWorker(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  tenants: readonly Tenant[],
  deliverer: WebhookDeliverer,
  log: FastifyBaseLogger,
): TaskWorker {
  const { agents } = ctx.config;
  return new TaskWorker({
    db: ctx.db,
    clock: ctx.clock,
    tenants,
    log,
    onWebhook: () => deliverer.wake(),
    settings: {
      leaseMs: agents.taskLeaseSeconds * 1000,
      maxAttempts: agents.taskMaxAttempts,
      validateOutputs: agents.validateOutputs,
      pollMs: 1000,
      concurrency: 8,
    },
  });
}

/** Each tenant's background passes, by `<tenant>:<pass>`; a pass that queued webhooks wakes `deliverer`. */
export function createTenantPasses(
  { db, clock }: Pick<AppContext, 'db' | 'clock'>,
  tenants: readonly Tenant[],
  deliverer: WebhookDeliverer,
  log: FastifyBaseLogger,
): Map<string, BackgroundPass> {
  const passes = new Map<string, BackgroundPass>();
  for (const tenant of tenants) {
    for (const pass of tenant.passes ?? []) {
      const context = { db, clock, log, webhooksQueued: () => deliverer.wake() };
      const onError = (err: unknown) =>
        log.error({ err, tenant: tenant.name, pass: pass.name }, 'agent background pass failed');
      passes.set(`${tenant.name}:${pass.name}`, new BackgroundPass(() => pass.run(context), onError, pass.intervalMs));
    }
  }
  return passes;
}

/** Prunes, every hour, what the agents have long finished with (idempotency records, finished tasks, settled webhooks). */
export function createHousekeeping(
  { db, clock, config }: Pick<AppContext, 'db' | 'clock' | 'config'>,
  log: FastifyBaseLogger,
): BackgroundPass {
  return new BackgroundPass(
    async () => void (await pruneAgentRecords(db, clock, config.agents.replayTtlSeconds)),
    (err) => log.error({ err }, 'could not prune old agent records'),
    3_600_000,
  );
}

/** Makes the first signing key at first start, and says when the keys lie unsealed. */
export async function prepareSigningKeys(
  { db, config }: Pick<AppContext, 'db' | 'config'>,
  keys: KeySettings,
  log: FastifyBaseLogger,
): Promise<void> {
  await currentKey(db, keys);
  if (!config.agents.signingKeySecret) unsealedKeysWarning(log, config.host);
}

/**
 * Without AP_SIGNING_KEY_SECRET the agents' private signing keys lie unsealed in the database.
 * On a loopback-only server that is a developer's machine; anywhere else it is a deployment that
 * anyone able to read the database (or, embedded, its files) can sign webhooks for, so it is said
 * at error level on every start.
 */
function unsealedKeysWarning(log: FastifyBaseLogger, host: string): void {
  if (isLoopbackHost(host)) {
    log.warn(
      'AP_SIGNING_KEY_SECRET is not set: agent signing keys are stored unsealed (acceptable in development only)',
    );
    return;
  }
  log.error(
    `AP_SIGNING_KEY_SECRET is not set and this server listens on ${host}: the agents' private signing keys are stored UNSEALED in the database, and anyone who can read it can sign webhooks as these agents. Set AP_SIGNING_KEY_SECRET (openssl rand -hex 32) before serving anyone but yourself.`,
  );
}
