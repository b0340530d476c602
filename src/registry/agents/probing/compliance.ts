import { isRecord } from '../../../protocol/json-values.ts';
import { validateSchema } from '../../../protocol/schemas.ts';
import type { ProbeObservation } from './observation.ts';

export const CAPABILITIES_SCHEMA_ID = '/schemas/3.0.6/protocol/get-ap-capabilities-response.json';
const ERROR_SCHEMA_ID = '/schemas/3.0.6/core/error.json';

/** One check of the protocol basics. `skipped` when it could not be run (the agent was not reached). */
export interface ComplianceCheck {
  name: CheckName;
  passed: boolean;
  message: string;
  skipped?: true;
}

export type ComplianceStatus = 'passing' | 'degraded' | 'failing' | 'unknown';

/** The checks, in the order they are reported; each name is stable (it is a feed `tracks` key). */
export const checkNames = [
  'reachable',
  'capabilities_valid',
  'tasks_listed',
  'error_envelope',
  'idempotency_advertised',
  'webhook_signing_advertised',
  'signing_keys_published',
] as const;
export type CheckName = (typeof checkNames)[number];

/** Checks without which the agent cannot be used at all: failing one makes the status `failing`. */
const essential: readonly CheckName[] = ['reachable', 'capabilities_valid'];

/**
 * Judges a probe: each check passes or fails with a message saying what was seen. `capabilities`
 * is the document in force (fetched by this probe, else the cached one).
 */
export function complianceChecks(seen: ProbeObservation, capabilities: unknown): ComplianceCheck[] {
  if (!seen.reachable || seen.protocols.length === 0) {
    const why = seen.healthError ?? 'the agent answered neither MCP nor A2A';
    return checkNames.map((name) =>
      name === 'reachable'
        ? { name, passed: false, message: why }
        : { name, passed: false, message: 'not checked: the agent could not be probed', skipped: true },
    );
  }
  const doc = isRecord(capabilities) ? capabilities : undefined;
  return [
    { name: 'reachable', passed: true, message: `answered over ${seen.protocols.join(' and ')}` },
    capabilitiesValid(seen, capabilities),
    tasksListed(seen, doc),
    errorEnvelope(seen),
    idempotencyAdvertised(doc),
    webhookSigningAdvertised(doc),
    signingKeysPublished(seen),
  ];
}

/** `passing` when every check passed, `failing` when an essential one failed, else `degraded`. */
export function complianceStatus(checks: readonly ComplianceCheck[]): ComplianceStatus {
  if (checks.length === 0) return 'unknown';
  if (checks.every((c) => c.passed)) return 'passing';
  return checks.some((c) => !c.passed && essential.includes(c.name)) ? 'failing' : 'degraded';
}

function capabilitiesValid(seen: ProbeObservation, capabilities: unknown): ComplianceCheck {
  const name = 'capabilities_valid';
  if (capabilities === undefined)
    return {
      name,
      passed: false,
      message: `get_ap_capabilities could not be read: ${seen.capabilitiesError ?? 'no answer'}`,
    };
  const { errors } = validateSchema(CAPABILITIES_SCHEMA_ID, capabilities);
  if (errors.length === 0)
    return { name, passed: true, message: 'valid against protocol/get-ap-capabilities-response.json' };
  const shown = errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  return {
    name,
    passed: false,
    message: `not valid against protocol/get-ap-capabilities-response.json: ${shown.join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`,
  };
}

/** Every task the capabilities advertise (its `tasks`, and get_ap_capabilities itself) is one the agent lists. */
function tasksListed(seen: ProbeObservation, doc: Record<string, unknown> | undefined): ComplianceCheck {
  const name = 'tasks_listed';
  const listed = new Set(seen.listedTasks ?? []);
  const advertised = [
    'get_ap_capabilities',
    ...(Array.isArray(doc?.['tasks']) ? doc['tasks'].filter((t): t is string => typeof t === 'string') : []),
  ];
  const missing = [...new Set(advertised)].filter((t) => !listed.has(t));
  if (missing.length === 0)
    return { name, passed: true, message: `all ${new Set(advertised).size} advertised tasks are listed` };
  return { name, passed: false, message: `advertised but not listed: ${missing.slice(0, 10).join(', ')}` };
}

/** A call of a task that does not exist is answered with the protocol's error object (core/error.json). */
function errorEnvelope(seen: ProbeObservation): ComplianceCheck {
  const name = 'error_envelope';
  const answer = seen.unknownTaskAnswer;
  if (!answer) return { name, passed: false, message: 'not checked' };
  if ('problem' in answer) return { name, passed: false, message: answer.problem };
  const { errors } = validateSchema(ERROR_SCHEMA_ID, answer.errorObject);
  if (errors.length > 0)
    return {
      name,
      passed: false,
      message: `the error object is not valid against core/error.json: ${errors[0]!.path}: ${errors[0]!.message}`,
    };
  return {
    name,
    passed: true,
    message: `an unknown task is answered with error ${(answer.errorObject as { code: string }).code}`,
  };
}

/** Replay protection declared as honored (`ap.idempotency.supported` true, with its window). */
function idempotencyAdvertised(doc: Record<string, unknown> | undefined): ComplianceCheck {
  const name = 'idempotency_advertised';
  const idempotency = isRecord(doc?.['ap']) ? doc['ap']['idempotency'] : undefined;
  if (!isRecord(idempotency)) return { name, passed: false, message: 'ap.idempotency is not declared' };
  if (idempotency['supported'] !== true)
    return { name, passed: false, message: 'ap.idempotency declares no replay protection' };
  return { name, passed: true, message: `replays honored for ${String(idempotency['replay_ttl_seconds'])} s` };
}

/** Outbound webhooks signed with the RFC 9421 profile (`webhook_signing.supported` true). */
function webhookSigningAdvertised(doc: Record<string, unknown> | undefined): ComplianceCheck {
  const name = 'webhook_signing_advertised';
  const signing = doc?.['webhook_signing'];
  if (!isRecord(signing) || signing['supported'] !== true)
    return { name, passed: false, message: 'webhook_signing.supported is not true' };
  const algorithms = Array.isArray(signing['algorithms']) ? signing['algorithms'].join(', ') : 'no algorithms named';
  return {
    name,
    passed: true,
    message: `signs webhooks (${String(signing['profile'] ?? 'no profile named')}: ${algorithms})`,
  };
}

/** A JWKS with at least one public key is published where receivers look for it. */
function signingKeysPublished(seen: ProbeObservation): ComplianceCheck {
  const name = 'signing_keys_published';
  const jwks = seen.signingKeys;
  if (!jwks) return { name, passed: false, message: 'not checked' };
  if ('problem' in jwks) return { name, passed: false, message: `${jwks.url}: ${jwks.problem}` };
  const usable = jwks.keys.filter(
    (k) => isRecord(k) && typeof k['kty'] === 'string' && typeof k['kid'] === 'string' && k['d'] === undefined,
  );
  if (usable.length === 0)
    return { name, passed: false, message: `${jwks.url} publishes no public key with kty and kid` };
  return { name, passed: true, message: `${jwks.url} publishes ${usable.length} key${usable.length === 1 ? '' : 's'}` };
}
