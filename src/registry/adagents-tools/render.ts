import type { AdagentsValidation, Issue } from '../documents/adagents-validation/findings.ts';

/** Findings as the wire shows them: the path is the JSON Pointer. */
export function renderFindings(validation: AdagentsValidation) {
  return {
    valid: validation.valid,
    errors: validation.errors.map(finding),
    warnings: validation.warnings.map(finding),
    ...(validation.omitted ? { omitted: validation.omitted } : {}),
  };
}

export function finding({ code, message, pointer }: Issue) {
  return { code, message, path: pointer };
}
