import { Type } from 'typebox';

/** Wire schemas of the enrichment objects the agent list shows (enrichment.ts builds them). */

export const ProbeHealth = Type.Object(
  {
    reachable: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Whether the last probe got an answer; null before the first probe.',
    }),
    latency_ms: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Time to the first answer; absent when not reached.' }),
    ),
    protocols: Type.Array(Type.String({ enum: ['mcp', 'a2a'] }), { description: 'Protocols the agent answered on.' }),
    last_probed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    error: Type.Optional(Type.String({ description: 'Why the last probe could not reach it.' })),
  },
  {
    $id: 'AgentProbeHealth',
    examples: [
      { reachable: true, latency_ms: 42, protocols: ['mcp', 'a2a'], last_probed_at: '2026-01-01T00:00:00.000Z' },
    ],
  },
);

const Accreditation = Type.Object(
  {
    accrediting_body: Type.String(),
    verified_by_registry: Type.Literal(false, {
      description: 'Always false: accreditations are vendor claims, not endorsed by the registry.',
    }),
  },
  { additionalProperties: true },
);

export const ProbeCapabilities = Type.Union(
  [
    Type.Object(
      {
        document: Type.Object(
          {},
          { additionalProperties: true, description: 'The agent’s get_ap_capabilities answer, as fetched.' },
        ),
        fetched_at: Type.String({ format: 'date-time' }),
        age_seconds: Type.Integer({ minimum: 0, description: 'How old the cached get_ap_capabilities answer is.' }),
        stale: Type.Boolean({ description: 'Older than the refresh interval (about 24 h).' }),
        supported_protocols: Type.Array(Type.String()),
        specialisms: Type.Array(Type.String()),
        creative_capabilities: Type.Optional(Type.Object({}, { additionalProperties: true })),
        signals_capabilities: Type.Optional(Type.Object({}, { additionalProperties: true })),
        metrics: Type.Optional(
          Type.Array(
            Type.Object(
              { metric_id: Type.String(), accreditations: Type.Array(Accreditation) },
              { additionalProperties: true },
            ),
          ),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { $id: 'AgentProbeCapabilities', description: 'From the agent’s own get_ap_capabilities, cached; null until read.' },
);

/** One check of a probe: passed or not, and why. */
const ComplianceCheck = Type.Object(
  {
    name: Type.String(),
    passed: Type.Boolean(),
    message: Type.String(),
    skipped: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

export const ProbeCompliance = Type.Object(
  {
    status: Type.String({ enum: ['passing', 'degraded', 'failing', 'unknown'] }),
    checked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    checks: Type.Array(ComplianceCheck),
  },
  {
    $id: 'AgentProbeCompliance',
    examples: [
      {
        status: 'passing',
        checked_at: '2026-01-01T00:00:00.000Z',
        checks: [{ name: 'reachable', passed: true, message: 'answered over mcp and a2a' }],
      },
    ],
  },
);

export const ProbeVerification = Type.Object(
  {
    verified: Type.Boolean(),
    role: Type.Union([Type.String(), Type.Null()], {
      description: 'The badge role (enums/ap-protocol.json) while verified.',
    }),
    specialisms: Type.Array(Type.String()),
    verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reason: Type.Optional(Type.String({ description: 'Why it is not verified.' })),
  },
  {
    $id: 'AgentProbeVerification',
    examples: [
      { verified: true, role: 'signals', specialisms: ['signal-marketplace'], verified_at: '2026-01-01T00:00:00.000Z' },
    ],
  },
);

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const Status = Type.String({ enum: ['passing', 'degraded', 'failing', 'unknown'] });

/** The summary's fields (compliance-summary.ts), which the detail repeats. */
const summaryFields = {
  status: Status,
  lifecycle_stage: Type.Literal('production', {
    description:
      'The registry models no lifecycle stages: an enrolled agent is listed and probed as a production agent.',
  }),
  tracks: Type.Record(Type.String(), Type.String({ enum: ['pass', 'fail', 'skip'] }), {
    description: 'Each check of the last probe by name: pass, fail, or skip (not run: the agent was not reached).',
  }),
  streak_days: Type.Integer({ minimum: 0, description: 'Whole days the current status has held.' }),
  last_checked_at: Timestamp,
  headline: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
    description: 'The first failing check and what was seen, or that all pass; null before the first probe.',
  }),
  verified: Type.Boolean({ description: 'Whether it holds the verified badge.' }),
  verified_roles: Type.Array(Type.String(), {
    description: 'The badge’s role (enums/ap-protocol.json) while verified.',
  }),
};

export const ComplianceSummarySchema = Type.Object(summaryFields, {
  $id: 'AgentComplianceSummary',
  description: 'An agent’s compliance as the protocol’s registry client reads it (AgentCompliance).',
  examples: [
    {
      status: 'passing',
      lifecycle_stage: 'production',
      tracks: { reachable: 'pass', capabilities_valid: 'pass' },
      streak_days: 3,
      last_checked_at: '2026-01-01T00:00:00.000Z',
      headline: 'all 7 checks pass',
      verified: true,
      verified_roles: ['media-buy'],
    },
  ],
});

export const ComplianceDetailSchema = Type.Object(
  {
    agent_url: Type.String({ description: 'Canonical, as the catalog keys it.' }),
    ...summaryFields,
    status_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the current status began.',
    }),
    last_passed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'The last probe where every check passed.',
    }),
    last_failed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'The last probe where a check failed (status degraded or failing).',
    }),
    storyboards_passing: Type.Integer({
      minimum: 0,
      description: 'Checks of the last probe that passed (the feed’s storyboards are the checks).',
    }),
    storyboards_total: Type.Integer({ minimum: 0 }),
    check_interval_hours: Type.Number({ description: 'How often the registry probes the agent.' }),
    declared_specialisms: Type.Array(Type.String(), {
      description: 'The specialisms its get_ap_capabilities declares.',
    }),
    checked_at: Timestamp,
    checks: Type.Array(ComplianceCheck, {
      description: 'The checks of the last probe, as the list’s compliance=true shows them.',
    }),
    verification: Type.Ref('AgentProbeVerification'),
    history: Type.Array(
      Type.Object({
        changed_at: Type.String({ format: 'date-time' }),
        previous_status: Status,
        current_status: Status,
        headline: Type.Union([Type.String(), Type.Null()]),
        checks_passing: Type.Integer({ minimum: 0 }),
        checks_total: Type.Integer({ minimum: 0 }),
      }),
      {
        maxItems: 20,
        description:
          'The latest changes of its checks (each an agent.compliance_changed of the feed, for a public agent), newest first.',
      },
    ),
  },
  {
    description:
      'An enrolled agent’s compliance checks and their history (the registry client’s AgentComplianceDetail, with the list’s checks).',
  },
);

export const probingSchemas = [
  ProbeHealth,
  ProbeCapabilities,
  ProbeCompliance,
  ProbeVerification,
  ComplianceSummarySchema,
];
