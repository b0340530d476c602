import { Type } from 'typebox';

/** Wire schemas of the enrichment objects the agent list shows (enrichment.ts builds them). */

export const ProbeHealth = Type.Object(
  {
    reachable: Type.Union([Type.Boolean(), Type.Null()], { description: 'Whether the last probe got an answer; null before the first probe.' }),
    latency_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'Time to the first answer; absent when not reached.' })),
    protocols: Type.Array(Type.String({ enum: ['mcp', 'a2a'] }), { description: 'Protocols the agent answered on.' }),
    last_probed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    error: Type.Optional(Type.String({ description: 'Why the last probe could not reach it.' })),
  },
  { $id: 'AgentProbeHealth', examples: [{ reachable: true, latency_ms: 42, protocols: ['mcp', 'a2a'], last_probed_at: '2026-01-01T00:00:00.000Z' }] },
);

const Accreditation = Type.Object(
  { accrediting_body: Type.String(), verified_by_registry: Type.Literal(false, { description: 'Always false: accreditations are vendor claims, not endorsed by the registry.' }) },
  { additionalProperties: true },
);

export const ProbeCapabilities = Type.Union(
  [
    Type.Object(
      {
        document: Type.Object({}, { additionalProperties: true, description: 'The agent’s get_ap_capabilities answer, as fetched.' }),
        fetched_at: Type.String({ format: 'date-time' }),
        age_seconds: Type.Integer({ minimum: 0, description: 'How old the cached get_ap_capabilities answer is.' }),
        stale: Type.Boolean({ description: 'Older than the refresh interval (about 24 h).' }),
        supported_protocols: Type.Array(Type.String()),
        specialisms: Type.Array(Type.String()),
        creative_capabilities: Type.Optional(Type.Object({}, { additionalProperties: true })),
        signals_capabilities: Type.Optional(Type.Object({}, { additionalProperties: true })),
        metrics: Type.Optional(Type.Array(Type.Object({ metric_id: Type.String(), accreditations: Type.Array(Accreditation) }, { additionalProperties: true }))),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { $id: 'AgentProbeCapabilities', description: 'From the agent’s own get_ap_capabilities, cached; null until read.' },
);

export const ProbeCompliance = Type.Object(
  {
    status: Type.String({ enum: ['passing', 'degraded', 'failing', 'unknown'] }),
    checked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    checks: Type.Array(
      Type.Object({ name: Type.String(), passed: Type.Boolean(), message: Type.String(), skipped: Type.Optional(Type.Literal(true)) }, { additionalProperties: false }),
    ),
  },
  { $id: 'AgentProbeCompliance', examples: [{ status: 'passing', checked_at: '2026-01-01T00:00:00.000Z', checks: [{ name: 'reachable', passed: true, message: 'answered over mcp and a2a' }] }] },
);

export const ProbeVerification = Type.Object(
  {
    verified: Type.Boolean(),
    role: Type.Union([Type.String(), Type.Null()], { description: 'The badge role (enums/ap-protocol.json) while verified.' }),
    specialisms: Type.Array(Type.String()),
    verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reason: Type.Optional(Type.String({ description: 'Why it is not verified.' })),
  },
  { $id: 'AgentProbeVerification', examples: [{ verified: true, role: 'signals', specialisms: ['signal-marketplace'], verified_at: '2026-01-01T00:00:00.000Z' }] },
);

export const probingSchemas = [ProbeHealth, ProbeCapabilities, ProbeCompliance, ProbeVerification];
