import { jsonPath, jsonPointer, type PathSegment } from '../../../protocol/json-path.ts';

/**
 * What a check of an adagents.json can report, each code with its severity and what it means.
 * Errors make the file unusable or unsafe as published; warnings are what the schema allows but a
 * publisher would want to fix. Codes are API: only ever added, never renamed or moved between
 * severities. `fetch` codes come from fetching a domain's file (or its agents), not from the file.
 */
export const findingCodes = {
  // Errors about the document itself.
  invalid_json: { severity: 'error', meaning: 'the text is not JSON' },
  schema_violation: {
    severity: 'error',
    meaning: 'the file breaks the published adagents.json schema (3.0.6) at `path`',
  },
  agent_url_invalid: { severity: 'error', meaning: 'an agent URL is not an absolute http(s) URL' },
  agent_url_credentials: {
    severity: 'error',
    meaning: 'an agent URL carries a user name or password, published to everyone',
  },
  signing_key_private_material: {
    severity: 'error',
    meaning: 'a signing key carries private members (d, p, q, dp, dq, qi, k): the private key is published',
  },
  signing_key_unsupported_type: {
    severity: 'error',
    meaning: 'a signing key’s kty is not OKP, EC or RSA (a symmetric oct key cannot be published)',
  },
  signing_key_missing_member: {
    severity: 'error',
    meaning: 'a signing key lacks a member its kty requires (OKP: crv, x; EC: crv, x, y; RSA: n, e)',
  },
  signing_key_invalid: {
    severity: 'error',
    meaning: 'a signing key’s members do not make a usable public key (encoding, size, curve)',
  },
  duplicate_signing_key_id: {
    severity: 'error',
    meaning: 'two signing keys of one agent share a kid, so a verifier cannot tell which to use',
  },
  // Errors found while fetching a domain's file.
  fetch_failed: {
    severity: 'error',
    meaning: 'the file could not be fetched (DNS, connection, time or size limit, a redirect to a private address)',
    fetch: true,
  },
  http_status: { severity: 'error', meaning: 'the file’s address answered an HTTP status other than 200', fetch: true },
  authoritative_location_loop: {
    severity: 'error',
    meaning: 'authoritative_location leads back to a file already read',
    fetch: true,
  },
  authoritative_location_too_long: {
    severity: 'error',
    meaning: 'authoritative_location hops go on past the limit the crawler follows',
    fetch: true,
  },
  // Warnings about the document.
  reference_file: {
    severity: 'warning',
    meaning: 'the file only points elsewhere (authoritative_location); the target must be valid too',
  },
  reference_and_inline: { severity: 'warning', meaning: 'the file both points elsewhere and lists agents itself' },
  last_updated_missing: { severity: 'warning', meaning: 'last_updated is missing' },
  last_updated_in_future: { severity: 'warning', meaning: 'last_updated is in the future' },
  last_updated_stale: { severity: 'warning', meaning: 'last_updated is more than a year ago' },
  agent_url_not_https: { severity: 'warning', meaning: 'an agent URL is not https' },
  agent_url_fragment: {
    severity: 'warning',
    meaning: 'an agent URL has a #fragment, which is never sent to the agent',
  },
  agent_url_not_public_host: {
    severity: 'warning',
    meaning: 'an agent URL names an IP address, localhost or a single-label host, which buyers cannot reach',
  },
  inconsistent_agent_url: { severity: 'warning', meaning: 'one agent is written two ways' },
  duplicate_agent_url: { severity: 'warning', meaning: 'the same agent is listed twice with the same authorization' },
  authorization_window_empty: { severity: 'warning', meaning: 'effective_until is not after effective_from' },
  authorization_expired: { severity: 'warning', meaning: 'an authorization’s effective_until has passed' },
  authorization_not_yet_effective: {
    severity: 'warning',
    meaning: 'an authorization applies only from a future effective_from',
  },
  no_authorized_agents: { severity: 'warning', meaning: 'no agent is authorized at the moment' },
  duplicate_property_id: { severity: 'warning', meaning: 'a property_id is declared twice' },
  duplicate_placement_id: { severity: 'warning', meaning: 'a placement_id is declared twice' },
  duplicate_signal_id: { severity: 'warning', meaning: 'a signal id is declared twice' },
  duplicate_identifier: {
    severity: 'warning',
    meaning: 'two properties (or one twice) declare the same identifier, so lookups by it are ambiguous',
  },
  unknown_property_id: { severity: 'warning', meaning: 'a selector names a property_id no property of the file has' },
  unknown_property_tag: { severity: 'warning', meaning: 'a selector names a tag no property of the file carries' },
  unknown_placement_id: { severity: 'warning', meaning: 'a selector names a placement_id the file does not declare' },
  unknown_placement_tag: { severity: 'warning', meaning: 'a selector names a tag no placement carries' },
  unknown_signal_id: { severity: 'warning', meaning: 'a selector names a signal id the file does not declare' },
  unknown_signal_tag: { severity: 'warning', meaning: 'a selector names a tag no signal carries' },
  signing_key_algorithm_mismatch: {
    severity: 'warning',
    meaning: 'a signing key’s alg does not fit its kty and curve',
  },
  signing_key_not_for_signing: { severity: 'warning', meaning: 'a signing key’s use is not sig' },
  // Warnings found while fetching.
  agent_unreachable: {
    severity: 'warning',
    meaning: 'with check_agents: an agent URL gave no HTTP answer within the time allowed',
    fetch: true,
  },
} as const satisfies Record<string, { severity: 'error' | 'warning'; meaning: string; fetch?: true }>;

export type FindingCode = keyof typeof findingCodes;

const codesOf = (severity: 'error' | 'warning') =>
  (Object.keys(findingCodes) as FindingCode[]).filter((code) => findingCodes[code].severity === severity);
export const adagentsErrorCodes = codesOf('error');
export const adagentsWarningCodes = codesOf('warning');

/** One finding: its code, what to fix, and where, as a JSON path (`$.a[0]`) and a JSON Pointer (`/a/0`). */
export interface Issue {
  code: FindingCode;
  message: string;
  path: string;
  pointer: string;
}

export interface AdagentsValidation {
  /** No errors (warnings allowed). */
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
  /** How many findings were left out of each list, when a file had more than MAX_FINDINGS of a kind. */
  omitted?: { errors: number; warnings: number };
}

/** Findings kept of each kind: a hostile file could otherwise make an answer of millions. */
export const MAX_FINDINGS = 200;

export type Report = (code: FindingCode, at: readonly PathSegment[], message: string) => void;

export function issue(code: FindingCode, at: readonly PathSegment[], message: string): Issue {
  return { code, message, path: jsonPath(at), pointer: jsonPointer(at) };
}

/** Collects findings into errors and warnings by their code's severity. */
export function collector(): { report: Report; result(): AdagentsValidation; add(found: Issue): void } {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const omitted = { errors: 0, warnings: 0 };
  const add = (found: Issue) => {
    const kind = findingCodes[found.code].severity === 'error' ? 'errors' : 'warnings';
    const list = kind === 'errors' ? errors : warnings;
    if (list.length < MAX_FINDINGS) list.push(found);
    else omitted[kind]++;
  };
  return {
    report: (code, at, message) => add(issue(code, at, message)),
    add,
    result: () => ({
      valid: errors.length === 0 && omitted.errors === 0,
      errors,
      warnings,
      ...(omitted.errors + omitted.warnings > 0 ? { omitted } : {}),
    }),
  };
}

/** The codes as a Markdown list, for the OpenAPI description (so the document never drifts from them). */
export function describeCodes(): string {
  const line = (code: FindingCode) => `- \`${code}\`: ${findingCodes[code].meaning}`;
  return ['Errors:', ...adagentsErrorCodes.map(line), '', 'Warnings:', ...adagentsWarningCodes.map(line)].join('\n');
}
