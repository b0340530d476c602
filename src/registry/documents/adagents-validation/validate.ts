/**
 * Checks a publisher's adagents.json: errors are schema violations and what makes the file unsafe
 * or unusable; warnings are what the schema allows but a publisher would want to fix. Reads
 * defensively: the semantic checks run on schema-invalid files too.
 */
import { parseBoundedJson } from '../../../protocol/json-depth.ts';
import { isRecord, items as arrayOf } from '../../../protocol/json-values.ts';
import { ADAGENTS_SCHEMA_ID, validateSchema } from '../../../protocol/schemas.ts';
import { checkAgentUrls } from './agent-urls.ts';
import { collector, type AdagentsValidation, type Report } from './findings.ts';
import { checkReferences } from './references.ts';
import { checkSigningKeys } from './signing-keys.ts';

export interface AdagentsValidationOptions {
  /** The moment dates are judged against; defaults to now. */
  now?: Date;
  /** A `last_updated` older than this many days is reported as stale. */
  staleAfterDays?: number;
}

const defaultStaleAfterDays = 365;
// Publishers' clocks drift; a timestamp only this far ahead is not worth a warning.
const futureToleranceMs = 5 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

export function validateAdagents(doc: unknown, options: AdagentsValidationOptions = {}): AdagentsValidation {
  const found = collector();
  for (const { pointer, path, message } of validateSchema(ADAGENTS_SCHEMA_ID, doc).errors)
    found.add({ code: 'schema_violation', path, pointer, message });
  if (isRecord(doc)) checkDocument(doc, options, found.report);
  return found.result();
}

/** As `validateAdagents`, for the file's text as fetched. */
export function validateAdagentsText(text: string, options: AdagentsValidationOptions = {}): AdagentsValidation {
  let doc: unknown;
  try {
    // Editors on some platforms save JSON with a byte-order mark, which JSON.parse rejects.
    doc = parseBoundedJson(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      valid: false,
      errors: [{ path: '$', pointer: '', message: `is not valid JSON: ${reason}`, code: 'invalid_json' }],
      warnings: [],
    };
  }
  return validateAdagents(doc, options);
}

function checkDocument(doc: Record<string, unknown>, options: AdagentsValidationOptions, report: Report): void {
  const now = (options.now ?? new Date()).getTime();
  const reference = doc['authoritative_location'];
  const inline = Object.hasOwn(doc, 'authorized_agents');
  if (typeof reference === 'string') {
    if (inline) {
      report(
        'reference_and_inline',
        ['authoritative_location'],
        'the file both points elsewhere and lists agents itself; readers may follow either, so keep only one',
      );
    } else {
      report(
        'reference_file',
        ['authoritative_location'],
        `agents are authorized by the file at ${reference}, which must be valid too; this file only points to it`,
      );
    }
  }
  checkLastUpdated(doc['last_updated'], inline, now, options.staleAfterDays ?? defaultStaleAfterDays, report);
  if (!inline) return;

  const agents = arrayOf(doc['authorized_agents']);
  checkAgentUrls(agents, report);
  checkWindows(agents, now, report);
  checkReferences(doc, agents, report);
  checkSigningKeys(agents, report);
}

function checkLastUpdated(value: unknown, inline: boolean, now: number, staleAfterDays: number, report: Report): void {
  if (value === undefined) {
    // A reference's own timestamp matters little; the file it points to carries the real one.
    if (inline)
      report('last_updated_missing', ['last_updated'], 'is missing; readers cannot tell how current the file is');
    return;
  }
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) return;
  if (time > now + futureToleranceMs)
    report('last_updated_in_future', ['last_updated'], `${String(value)} is in the future`);
  else if (now - time > staleAfterDays * dayMs) {
    report(
      'last_updated_stale',
      ['last_updated'],
      `${String(value)} is more than ${staleAfterDays} days ago; check the file is still current`,
    );
  }
}

function checkWindows(agents: unknown[], now: number, report: Report): void {
  let current = 0;
  agents.forEach((agent, index) => {
    if (!isRecord(agent)) return;
    const from = timeOf(agent['effective_from']);
    const until = timeOf(agent['effective_until']);
    const at = ['authorized_agents', index];
    if (from !== undefined && until !== undefined && until <= from) {
      report(
        'authorization_window_empty',
        [...at, 'effective_until'],
        'is not after effective_from, so this authorization never applies',
      );
    } else if (until !== undefined && until <= now) {
      report(
        'authorization_expired',
        [...at, 'effective_until'],
        `${String(agent['effective_until'])} has passed; this authorization no longer applies`,
      );
    } else if (from !== undefined && from > now) {
      report(
        'authorization_not_yet_effective',
        [...at, 'effective_from'],
        `this authorization applies only from ${String(agent['effective_from'])}`,
      );
    } else {
      current++;
    }
  });
  if (agents.length > 0 && current === 0) {
    report(
      'no_authorized_agents',
      ['authorized_agents'],
      'no agent is authorized at the moment: every entry is outside its effective window',
    );
  }
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

export {
  adagentsErrorCodes,
  adagentsWarningCodes,
  describeCodes,
  findingCodes,
  MAX_FINDINGS,
  type AdagentsValidation,
  type FindingCode,
  type Issue,
} from './findings.ts';
