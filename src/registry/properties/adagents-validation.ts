/**
 * Checks a publisher's adagents.json: errors are schema violations; warnings are things the schema
 * allows but a publisher would want to fix, each with a stable code.
 */
import { isDeepStrictEqual } from 'node:util';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { jsonPath, type PathSegment } from '../../protocol/json-path.ts';
import { isRecord } from '../../protocol/json-values.ts';
import { ADAGENTS_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';

export interface Issue {
  path: string;
  message: string;
  code?: string;
}

export interface AdagentsValidation {
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
}

export interface AdagentsValidationOptions {
  /** The moment dates are judged against; defaults to now. */
  now?: Date;
  /** A `last_updated` older than this many days is reported as stale. */
  staleAfterDays?: number;
}

/** Every warning code; codes are API, so they are only ever added. */
export const adagentsWarningCodes = [
  'reference_file',
  'reference_and_inline',
  'last_updated_missing',
  'last_updated_in_future',
  'last_updated_stale',
  'agent_url_not_https',
  'inconsistent_agent_url',
  'duplicate_agent_url',
  'authorization_window_empty',
  'authorization_expired',
  'authorization_not_yet_effective',
  'no_authorized_agents',
  'duplicate_property_id',
  'duplicate_placement_id',
  'duplicate_signal_id',
  'unknown_property_id',
  'unknown_property_tag',
  'unknown_placement_id',
  'unknown_placement_tag',
  'unknown_signal_id',
  'unknown_signal_tag',
] as const;

export type AdagentsWarningCode = (typeof adagentsWarningCodes)[number];

const defaultStaleAfterDays = 365;
// Publishers' clocks drift; a timestamp only this far ahead is not worth a warning.
const futureToleranceMs = 5 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

export function validateAdagents(doc: unknown, options: AdagentsValidationOptions = {}): AdagentsValidation {
  const schema = validateSchema(ADAGENTS_SCHEMA_ID, doc);
  return {
    valid: schema.valid,
    errors: schema.errors.map((issue) => ({ ...issue, code: 'schema_violation' })),
    warnings: adagentsWarnings(doc, options),
  };
}

/** As `validateAdagents`, for the file's text as fetched. */
export function validateAdagentsText(text: string, options: AdagentsValidationOptions = {}): AdagentsValidation {
  let doc: unknown;
  try {
    // Editors on some platforms save JSON with a byte-order mark, which JSON.parse rejects.
    doc = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { valid: false, errors: [{ path: '$', message: `is not valid JSON: ${reason}`, code: 'invalid_json' }], warnings: [] };
  }
  return validateAdagents(doc, options);
}

type Warn = (code: AdagentsWarningCode, path: PathSegment[], message: string) => void;

/** Reads defensively: warnings are computed for schema-invalid files too. */
function adagentsWarnings(doc: unknown, options: AdagentsValidationOptions): Issue[] {
  const warnings: Issue[] = [];
  if (!isRecord(doc)) return warnings;
  const warn: Warn = (code, path, message) => warnings.push({ path: jsonPath(path), message, code });
  const now = (options.now ?? new Date()).getTime();

  const reference = doc['authoritative_location'];
  const inline = Object.hasOwn(doc, 'authorized_agents');
  if (typeof reference === 'string') {
    if (inline) {
      warn('reference_and_inline', ['authoritative_location'], 'the file both points elsewhere and lists agents itself; readers may follow either, so keep only one');
    } else {
      warn('reference_file', ['authoritative_location'], `agents are authorized by the file at ${reference}, which must be valid too; this file only points to it`);
    }
  }
  checkLastUpdated(doc['last_updated'], inline, now, options.staleAfterDays ?? defaultStaleAfterDays, warn);
  if (!inline) return warnings;

  const agents = arrayOf(doc['authorized_agents']);
  checkAgentUrls(agents, warn);
  checkWindows(agents, now, warn);
  checkReferences(doc, agents, warn);
  return warnings;
}

function checkLastUpdated(value: unknown, inline: boolean, now: number, staleAfterDays: number, warn: Warn): void {
  if (value === undefined) {
    // A reference's own timestamp matters little; the file it points to carries the real one.
    if (inline) warn('last_updated_missing', ['last_updated'], 'is missing; readers cannot tell how current the file is');
    return;
  }
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) return;
  if (time > now + futureToleranceMs) warn('last_updated_in_future', ['last_updated'], `${String(value)} is in the future`);
  else if (now - time > staleAfterDays * dayMs) {
    warn('last_updated_stale', ['last_updated'], `${String(value)} is more than ${staleAfterDays} days ago; check the file is still current`);
  }
}

function checkAgentUrls(agents: unknown[], warn: Warn): void {
  const firstByAgent = new Map<string, number>();
  agents.forEach((agent, index) => {
    if (!isRecord(agent) || typeof agent['url'] !== 'string') return;
    const url = agent['url'];
    const canonical = canonicalAgentUrl(url);
    if (canonical === undefined) return;
    const at = ['authorized_agents', index, 'url'];
    if (!canonical.startsWith('https://')) warn('agent_url_not_https', at, `${url} is not an https URL`);

    const first = firstByAgent.get(canonical);
    if (first === undefined) {
      firstByAgent.set(canonical, index);
      return;
    }
    const earlier = agents[first] as Record<string, unknown>;
    const firstPath = jsonPath(['authorized_agents', first]);
    if (earlier['url'] !== url) {
      warn('inconsistent_agent_url', at, `names the same agent as ${firstPath} but is written differently; tools that compare text will treat them as two agents`);
    }
    // The same agent may hold several entries with different scopes; only a repeat is a mistake.
    if (isDeepStrictEqual(scopeOf(earlier), scopeOf(agent))) {
      warn('duplicate_agent_url', at, `${url} is already listed with the same authorization at ${firstPath}`);
    }
  });
}

function scopeOf(agent: Record<string, unknown>): Record<string, unknown> {
  const { url: _url, authorized_for: _description, ...scope } = agent;
  return scope;
}

function checkWindows(agents: unknown[], now: number, warn: Warn): void {
  let current = 0;
  agents.forEach((agent, index) => {
    if (!isRecord(agent)) return;
    const from = timeOf(agent['effective_from']);
    const until = timeOf(agent['effective_until']);
    const at = ['authorized_agents', index];
    if (from !== undefined && until !== undefined && until <= from) {
      warn('authorization_window_empty', [...at, 'effective_until'], 'is not after effective_from, so this authorization never applies');
    } else if (until !== undefined && until <= now) {
      warn('authorization_expired', [...at, 'effective_until'], `${String(agent['effective_until'])} has passed; this authorization no longer applies`);
    } else if (from !== undefined && from > now) {
      warn('authorization_not_yet_effective', [...at, 'effective_from'], `this authorization applies only from ${String(agent['effective_from'])}`);
    } else {
      current++;
    }
  });
  if (agents.length > 0 && current === 0) {
    warn('no_authorized_agents', ['authorized_agents'], 'no agent is authorized at the moment: every entry is outside its effective window');
  }
}

/** Selections by id or tag that name nothing declared in this file select nothing. */
function checkReferences(doc: Record<string, unknown>, agents: unknown[], warn: Warn): void {
  const properties = arrayOf(doc['properties']);
  const placements = arrayOf(doc['placements']);
  const signals = arrayOf(doc['signals']);

  const propertyIds = declaredIds(properties, 'property_id', 'properties', 'duplicate_property_id', warn);
  const placementIds = declaredIds(placements, 'placement_id', 'placements', 'duplicate_placement_id', warn);
  const signalIds = declaredIds(signals, 'id', 'signals', 'duplicate_signal_id', warn);
  const propertyTags = tagsOf(properties);
  const placementTags = tagsOf(placements);
  const signalTags = tagsOf(signals);

  const checks: [string, Set<string>, AdagentsWarningCode, (name: string) => string][] = [
    ['property_ids', propertyIds, 'unknown_property_id', (id) => `no property in this file has property_id "${id}"`],
    ['property_tags', propertyTags, 'unknown_property_tag', (tag) => `no property in this file has the tag "${tag}", so it selects nothing`],
    ['placement_ids', placementIds, 'unknown_placement_id', (id) => `no placement in this file has placement_id "${id}"`],
    ['placement_tags', placementTags, 'unknown_placement_tag', (tag) => `no placement in this file has the tag "${tag}", so it selects nothing`],
    ['signal_ids', signalIds, 'unknown_signal_id', (id) => `no signal in this file has id "${id}"`],
    ['signal_tags', signalTags, 'unknown_signal_tag', (tag) => `no signal in this file has the tag "${tag}", so it selects nothing`],
  ];
  const selectors: [string, unknown[]][] = [
    ['authorized_agents', agents],
    ['placements', placements],
  ];
  for (const [list, entries] of selectors) {
    entries.forEach((entry, index) => {
      if (!isRecord(entry)) return;
      for (const [field, declared, code, message] of checks) {
        arrayOf(entry[field]).forEach((name, position) => {
          if (typeof name === 'string' && !declared.has(name)) warn(code, [list, index, field, position], message(name));
        });
      }
    });
  }
}

function declaredIds(entries: unknown[], field: string, list: string, duplicateCode: AdagentsWarningCode, warn: Warn): Set<string> {
  const ids = new Set<string>();
  entries.forEach((entry, index) => {
    const id = isRecord(entry) ? entry[field] : undefined;
    if (typeof id !== 'string') return;
    if (ids.has(id)) warn(duplicateCode, [list, index, field], `"${id}" is declared more than once; selections by it become ambiguous`);
    ids.add(id);
  });
  return ids;
}

function tagsOf(entries: unknown[]): Set<string> {
  const tags = entries.flatMap((entry) => (isRecord(entry) ? arrayOf(entry['tags']) : []));
  return new Set(tags.filter((tag): tag is string => typeof tag === 'string'));
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
