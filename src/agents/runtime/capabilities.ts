import { AgentError } from '../../protocol/errors.ts';
import type { AgentTask, Tenant } from './task.ts';

export interface CapabilitySettings {
  replayTtlSeconds: number;
  /** The webhook-signing algorithms this deployment signs with; empty while it sends no signed webhooks. */
  webhookAlgorithms: Array<'ed25519' | 'ecdsa-p256-sha256'>;
}

/** The protocol's major versions every agent here speaks (`ap.major_versions`). */
export const supportedMajorVersions: readonly number[] = [3];

/**
 * A request that declares an `ap_major_version` this agent does not speak is refused before it
 * runs, naming the versions it does (enums/error-code.json VERSION_UNSUPPORTED); one that declares
 * none is read as the highest supported.
 */
export function checkMajorVersion(args: unknown): void {
  const version = (args as { ap_major_version?: unknown } | null | undefined)?.ap_major_version;
  if (version === undefined || supportedMajorVersions.includes(version as number)) return;
  throw new AgentError(
    'VERSION_UNSUPPORTED',
    `This agent speaks AP major version ${supportedMajorVersions.join(', ')}, not ${JSON.stringify(version)}.`,
    {
      field: 'ap_major_version',
      details: { supported_versions: supportedMajorVersions },
    },
  );
}

/**
 * `get_ap_capabilities`, which every tenant answers (protocol/get-ap-capabilities-response.json):
 * its major versions and idempotency (`ap`), protocols, specialisms, tasks and webhook signing.
 */
export function capabilitiesTask(
  tenant: Omit<Tenant, 'tasks'> & { tasks: readonly AgentTask[] },
  settings: CapabilitySettings,
): AgentTask {
  const answer = {
    ap: {
      major_versions: [...supportedMajorVersions],
      idempotency: { supported: true, replay_ttl_seconds: settings.replayTtlSeconds },
    },
    supported_protocols: tenant.protocols,
    specialisms: tenant.specialisms ?? [],
    tasks: ['get_ap_capabilities', ...tenant.tasks.map((t) => t.name)],
    webhook_signing:
      settings.webhookAlgorithms.length > 0
        ? { supported: true, profile: 'ap/webhook-signing/v1', algorithms: settings.webhookAlgorithms }
        : { supported: false },
  };
  return {
    name: 'get_ap_capabilities',
    description:
      'What this agent supports: AP major versions, protocols, specialisms, tasks, idempotency and webhook signing.',
    input: {
      type: 'object',
      properties: {
        ap_major_version: { type: 'integer', minimum: 1, maximum: 99 },
        protocols: {
          type: 'array',
          minItems: 1,
          items: { type: 'string', enum: ['media_buy', 'signals', 'governance', 'sponsored_intelligence', 'creative'] },
        },
      },
    },
    mutates: false,
    async handler() {
      return structuredClone({ ...answer, ...tenant.capabilities?.() });
    },
  };
}
