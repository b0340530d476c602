import type { AgentTask, Tenant } from './task.ts';

export interface CapabilitySettings {
  replayTtlSeconds: number;
  /** The webhook-signing algorithms this deployment signs with; empty while it sends no signed webhooks. */
  webhookAlgorithms: Array<'ed25519' | 'ecdsa-p256-sha256'>;
}

/**
 * `get_ap_capabilities`, which every tenant answers: its protocols and tasks, idempotency
 * (`ap.idempotency`, as protocol/get-ap-capabilities-response.json places it) and webhook signing.
 */
export function capabilitiesTask(tenant: Omit<Tenant, 'tasks'> & { tasks: readonly AgentTask[] }, settings: CapabilitySettings): AgentTask {
  return {
    name: 'get_ap_capabilities',
    description: 'What this agent supports: protocols, tasks, idempotency and webhook signing.',
    input: { type: 'object', properties: { ap_major_version: { type: 'integer', minimum: 1 } } },
    mutates: false,
    async handler() {
      return {
        ap: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: settings.replayTtlSeconds } },
        supported_protocols: tenant.protocols,
        tasks: ['get_ap_capabilities', ...tenant.tasks.map((t) => t.name)],
        webhook_signing:
          settings.webhookAlgorithms.length > 0
            ? { supported: true, profile: 'ap/webhook-signing/v1', algorithms: settings.webhookAlgorithms }
            : { supported: false },
      };
    },
  };
}
