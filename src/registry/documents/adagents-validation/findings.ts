import { jsonPath, jsonPointer, type PathSegment } from '../../../protocol/json-path.ts';

import codes from './finding-codes.json' with { type: 'json' };

/**
 * What a check of an adagents.json can report (`finding-codes.json`, one code a line), each code
 * with its severity and what it means. Errors make the file unusable or unsafe as published;
 * warnings are what the schema allows but a publisher would want to fix. Codes are API: only ever
 * added, never renamed or moved between severities. `fetch` codes come from fetching a domain's
 * file (or its agents), not from the file.
 */
export const findingCodes = codes as Readonly<
  Record<keyof typeof codes, { severity: 'error' | 'warning'; meaning: string; fetch?: true }>
>;

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
